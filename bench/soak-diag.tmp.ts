import { soak } from './scenarios/soak.js';
const r = await soak({ jobs: Number(process.argv[2] ?? 3000), concurrency: 32, members: 64, gatewayFaultsPerRound: 12 });
console.log(JSON.stringify(r.ours));
console.table(r.tenths);
process.exit(0);
