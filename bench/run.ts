/**
 * `npm run bench [-- --quick] [--only=burst,overhead,memory,quota,hostile,describe-flood,svg,records,startup,soak] [--results-dir=DIR] [--no-docs]`
 * Runs the scenarios one after another (each in fresh processes), prints a table, writes bench/results/*.json and,
 * after a full run of every scenario, docs/benchmarks.md.
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { burst, type BurstParams } from './scenarios/burst.js';
import { describeFlood, type DescribeFloodParams } from './scenarios/describe-flood.js';
import { hostile, type HostileParams } from './scenarios/hostile.js';
import { memory, type MemoryParams } from './scenarios/memory.js';
import { overhead, type OverheadParams } from './scenarios/overhead.js';
import { quota, type QuotaParams } from './scenarios/quota.js';
import { records, type RecordsParams } from './scenarios/records.js';
import { soak, type SoakParams } from './scenarios/soak.js';
import { startup, type StartupParams } from './scenarios/startup.js';
import { svg, type SvgParams } from './scenarios/svg.js';
import { evaluateTargets, machine, tables, writeDocs, writeJson, type BenchResult } from './report.js';
import { OUR_BOT_FLAGS } from './session.js';

const SCENARIOS = ['burst', 'overhead', 'memory', 'quota', 'hostile', 'describe-flood', 'svg', 'records', 'startup', 'soak'] as const;
type Scenario = (typeof SCENARIOS)[number];

interface Params {
  burst: BurstParams;
  overhead: OverheadParams;
  memory: MemoryParams;
  quota: QuotaParams;
  hostile: HostileParams;
  'describe-flood': DescribeFloodParams;
  svg: SvgParams;
  records: RecordsParams;
  startup: StartupParams;
  soak: SoakParams;
}

const MB = 1_000_000;
/** The issue's worst inputs: 20 members, 10 × 45 MB references (2 × 45 MB fit), 64 MB url answers, a 16 MB/s CDN. */
const HOSTILE: HostileParams = {
  members: 20,
  refBytes: 45 * MB,
  refusedRefs: 10,
  acceptedRefs: 2,
  timeoutMs: 600_000,
  linkBytes: 64 * MB,
  budgetBytes: 192 * 1024 * 1024,
  cdnBytesPerSecond: 16 * MB,
};

const FULL: Params = {
  burst: { count: 200, members: 50, spreadMs: 2000, delayMs: 2000 },
  overhead: { delayMs: 500, oneImage: 30, fourImages: 12, referenceRuns: 12 },
  memory: { jobs: 100, delayMs: 3000, spreadMs: 500 },
  quota: { durationMs: 3000, concurrency: 32, members: 500, processes: { processes: 2, reservations: 10_000, concurrency: 32, members: 1_000, limit: 16 } },
  hostile: HOSTILE,
  'describe-flood': { floodMembers: 5, burst: 5, imageWidth: 3600, imageHeight: 2700, edits: 20, timeoutMs: 300_000, visionDelayMs: 2_000, editDelayMs: 1_000 },
  svg: { hostile: 8, others: 8, timeoutSeconds: 10 },
  records: { members: 5_000, writes: 400, slots: { held: 32, waiting: 32, durationMs: 5_000, churnEveryMs: 100 } },
  startup: { starts: 7, idleMs: 3_000 },
  soak: { jobs: 10_000, concurrency: 32, members: 64, gatewayFaultsPerRound: 40 },
};

const QUICK: Params = {
  burst: { count: 20, members: 5, spreadMs: 200, delayMs: 300 },
  overhead: { delayMs: 200, oneImage: 3, fourImages: 2, referenceRuns: 2 },
  memory: { jobs: 6, delayMs: 500, spreadMs: 100 },
  quota: { durationMs: 300, concurrency: 8, members: 50, processes: { processes: 2, reservations: 300, concurrency: 8, members: 20, limit: 25 } },
  hostile: { ...HOSTILE, members: 4 },
  'describe-flood': { floodMembers: 3, burst: 5, imageWidth: 2400, imageHeight: 1800, edits: 5, timeoutMs: 120_000, visionDelayMs: 1_000, editDelayMs: 500 },
  svg: { hostile: 4, others: 4, timeoutSeconds: 2 },
  records: { members: 500, writes: 50, slots: { held: 32, waiting: 32, durationMs: 1_000, churnEveryMs: 100 } },
  startup: { starts: 1, idleMs: 500 },
  soak: { jobs: 150, concurrency: 8, members: 16, gatewayFaultsPerRound: 2 },
};

export const METHOD = `
- **Processes.** Every scenario run starts three fresh processes: the Discord emulator, the gateway emulator (each in
  its own process, \`bench/emulator-host.ts\`) and the bot (\`bench/bot-host.ts\`: ours through the compiled
  \`dist/main.js\`'s \`startBot\`, built first when older than src/, like \`npm start\`, or the baseline). The orchestrator (\`bench/run.ts\`) only sends commands over IPC.
  Keeping the emulators out of the bot's process keeps their CPU work (base64 of megabytes of PNG per answer,
  multipart parsing) off the bot's event loop and their stored image bytes out of the bot's memory; splitting the two
  emulators keeps the gateway's base64 work from delaying the Discord emulator's timestamps. On 2 cores the three
  processes still compete for CPU, as a bot and its neighbours would.
- **Warm-up.** Each session first runs one job of each shape it measures through the bot, then leaves it idle for
  500 ms, so the measured load neither pays for first-use costs nor lands on the warm-up job's tail (its quota
  commit and archive record, the collection of its garbage).
- **Clock.** Latencies are taken in the Discord emulator process with \`performance.now()\`: dispatch = the moment
  INTERACTION_CREATE is written to the bot's WebSocket; ack = the deferred callback's request arriving; final = the
  edit carrying the images fully received and recorded (multipart body read and parsed).
- **Images.** The gateway emulator answers with textured PNGs (\`imageStyle: 'textured'\`, about 2–4 MB per
  1536x1024), as base64 JSON. Our bot runs with \`GATEWAY_PARTIAL_IMAGES=0\` (the baseline has no previews),
  \`GATEWAY_MAX_RETRIES=0\` (the baseline's SDK also gets \`maxRetries: 0\`), SQLite storage, log level info (lines
  counted and dropped instead of written to a terminal), limits large enough that no job is refused or queued, and
  its other defaults, in a Node started with \`${OUR_BOT_FLAGS.join(' ')}\` as \`npm start\`
  and the Docker image do (garbage-collector tuning); the baseline runs with Node's defaults.
- **Burst.** N \`/imagine\` (1024x1024, one image) from M synthetic members, dispatched evenly over the spread, gateway
  delay 2 s; all jobs are awaited to completion.
- **Overhead.** One request at a time (after one warm-up of each shape), gateway delay L; overhead = final − dispatch − L.
  It includes the emulator's own work beyond L (serialising the answer, parsing the upload), which is shown in the
  reference rows. The reference is measured with no bot running: base64-decode the four images and PATCH their bytes
  once (undici fetch, one multipart body) to the interaction's original message, until the response is read.
- **Memory.** N jobs dispatched within the spread (every one is in flight before the first answer), each answered
  with four 1536x1024 PNGs after the delay. Peak RSS is the bot process's kernel high-water mark (VmHWM, reset through
  /proc/self/clear_refs once the bot is ready, so start-up does not count); heap and ArrayBuffer peaks are sampled
  every 20 ms; event-loop delay is \`perf_hooks.monitorEventLoopDelay\` (10 ms resolution) over the load.
- **Quota store.** \`reserve()\` on each backend with C reservations in flight for D seconds, spread over many members,
  in the orchestrator process with nothing else running; Redis and PostgreSQL run when REDIS_URL / POSTGRES_URL are
  set (a fresh namespace each, cleared afterwards).
- **Quota ledger across processes.** P processes (\`bench/quota-host.ts\`), each with its own connections to one store,
  make R reservations each with C in flight, spread over M members whose limit L is smaller than what they ask for in
  all: the figure is P × R / the wall time from the moment both start to the moment both are done. Exactness: the
  processes must have accepted exactly M × L, and the ledger, read afterwards, must hold exactly M × L reserved.
- **Describe flood.** F members keep describing one large noisy PNG (stored uncompressed; each first fires a burst of
  describes at once, of which the bot runs one per member and refuses the rest, then describes again as soon as the
  last settled; no cooldown; the vision model answers after V) while another member runs E edits (a 1024x1024
  reference, gateway delay L) one after another. The same E edits first run alone on the same bot: the figure is the
  edits' end-to-end p50 with the flood over that without it. Peak RSS is taken over the flooded phase (ours only).
- **SVG.** H members at once ask for an SVG; the gateway answers each with a hostile document (the 4096x4096
  turbulence of issue 28, the 65 KB SVG embedding a data: PNG that declares 20000x20000, and documents within every
  cap that run into \`SVG_RENDER_TIMEOUT_SECONDS\`); once the bot holds them all, O other members ask for PNGs. A
  probe in the bot's process runs \`dns.lookup('localhost')\` one after another (5 ms apart) from the first request
  to the last answer; the slowest lookup is the figure. Peak RSS as for memory; the render children's resident
  memory is sampled apart (every 20 ms, summed over them).
- **Records** (issue 28). Usage totals: one settled job's \`usageTotals.add\` at a time (half delivered, half
  refused), W writes to a server's day counting 5 members, then W more once the day counts M members (seeded with
  16 writes in flight), on SQLite, and on Redis / PostgreSQL when their URLs are set; wall p50/p99 and CPU per write
  (the process's user + system time over the W writes). PostgreSQL job slots: with MAX_CONCURRENT_JOBS=32, 32 jobs
  hold every slot through one opening while 32 jobs of other members wait through a second (two "processes"); the
  statements both send are counted on the client (pg's query method wrapped) for D seconds with nothing released,
  then for D seconds with a slot released every 100 ms (a waiter takes it, a new waiter queues).
- **Start-up.** The compiled bot as \`npm start\` runs it (\`node <flags> dist/cli.js\`, \`npm run build\` first when
  dist/ is older than src/), started S times one after another against one pair of emulators, SQLite storage, no
  HTTP listener: the time from spawn to its 'bot ready' log line (logged in, commands in sync), and its resident
  size (VmRSS) once it has sat idle for a few seconds after that; medians over the starts.
- **Soak.** N mixed jobs through one bot process, C at a time from M members, in ten rounds of a tenth each: in
  turn /imagine, /edit of a 512x512 reference, Vary (Subtle) and Zoom out 2× on earlier cards, /describe of the
  reference, and /imagine with a size the bot refuses; before each round the gateway is told to fail (500, 502,
  reset) or refuse (moderation) its next F image requests. Flat 1024x1024 images, no gateway delay, moderation
  strikes off. After each round the bot (started with \`--expose-gc\`) forces a full collection and reports its live
  heap (and V8's compiled code in it) and listeners (process, client, WebSocket manager, both REST clients), then,
  1.5 s later, its resident size (the allocator's decay: what the bot keeps, not pages freed a moment ago) and libuv
  handles (\`process.getActiveResourcesInfo()\`; the timers of the jobs just finished have gone by then, and the
  count right after the round is in the table too); the figures compare the last tenth with the first. Event-loop
  delay is over the whole soak.
- **Baseline** (\`bench/baseline-bot.ts\`): discord.js client; \`deferReply()\`, openai SDK v6 \`images.generate\`,
  \`Buffer.from(b64_json, 'base64')\` for each image, \`editReply({ files })\`. No quota, no queue. Same emulators and load,
  run before ours in each scenario. Ratios are ours / baseline (below 1 is better, except \`completed\`).
`.trim();

function parseArgs(argv: string[]) {
  const quick = argv.includes('--quick');
  const only = argv
    .find((a) => a.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',')
    .filter(Boolean);
  for (const name of only ?? []) if (!SCENARIOS.includes(name as Scenario)) throw new Error(`unknown scenario ${name}; expected ${SCENARIOS.join(', ')}`);
  const resultsDir = argv.find((a) => a.startsWith('--results-dir='))?.slice('--results-dir='.length) ?? fileURLToPath(new URL('./results', import.meta.url));
  return { quick, only: (only ?? [...SCENARIOS]) as Scenario[], resultsDir, docs: !argv.includes('--no-docs') };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const params = args.quick ? QUICK : FULL;
  const started = performance.now();
  const result: Omit<BenchResult, 'targets'> = {
    mode: args.quick ? 'quick' : 'full',
    startedAt: new Date().toISOString(),
    durationSeconds: 0,
    machine: machine(),
    baseline: {},
  };
  const failures: string[] = [];
  const log = (text: string) => console.log(`[bench ${((performance.now() - started) / 1000).toFixed(1)} s] ${text}`);
  for (const name of args.only) {
    log(`${name}…`);
    try {
      if (name === 'burst') result.burst = await burst(params.burst);
      if (name === 'overhead') result.overhead = await overhead(params.overhead);
      if (name === 'memory') result.memory = await memory(params.memory);
      if (name === 'hostile') {
        // BENCH_HOSTILE (JSON) overrides the scenario's parameters for tuning runs.
        result.hostile = await hostile({ ...params.hostile, ...(JSON.parse(process.env['BENCH_HOSTILE'] ?? '{}') as Partial<HostileParams>) });
        log(`hostile: peak RSS ${result.hostile.ours['peakRssMB']} MB against a budget of ${result.hostile.ours['budgetMB']} MB`);
      }
      if (name === 'describe-flood') {
        result.describeFlood = await describeFlood(params['describe-flood']);
        log(`describe-flood: edit p50 ${result.describeFlood.ours['editP50FloodedMs']} ms flooded, ${result.describeFlood.ours['editP50AloneMs']} ms alone`);
      }
      if (name === 'svg') {
        result.svg = await svg(params.svg);
        log(`svg: slowest dns.lookup ${result.svg.ours['dnsMaxMs']} ms during hostile renders, peak RSS ${result.svg.ours['peakRssMB']} MB`);
      }
      if (name === 'records') {
        result.records = await records({ ...params.records, redisUrl: process.env['REDIS_URL'], postgresUrl: process.env['POSTGRES_URL'] });
        const slots = result.records.postgresSlots;
        log(`records: PostgreSQL slots ${'skipped' in slots ? `skipped (${slots.skipped})` : `${slots['statementsPerSecondWaiting']} statements/s`}`);
      }
      if (name === 'startup') {
        result.startup = await startup(params.startup);
        log(`startup: idle RSS ${result.startup.ours['idleRssMedianMB']} MB, ready in ${result.startup.ours['readyMedianMs']} ms (medians)`);
      }
      if (name === 'soak') {
        result.soak = await soak(params.soak);
        const o = result.soak.ours;
        log(`soak: RSS ${o['rssFirstTenthMB']} → ${o['rssLastTenthMB']} MB, live heap ${o['heapFirstTenthMB']} → ${o['heapLastTenthMB']} MB`);
      }
      if (name === 'quota') result.quota = await quota({ ...params.quota, redisUrl: process.env['REDIS_URL'], postgresUrl: process.env['POSTGRES_URL'] });
    } catch (err) {
      // Keep the other scenarios' figures; the run still fails at the end.
      failures.push(`${name}: ${err instanceof Error ? err.message : String(err)}`);
      log(`${name} failed: ${String(err)}`);
    }
  }
  for (const name of ['burst', 'overhead', 'memory'] as const) {
    const section = result[name];
    if (section) result.baseline[name] = section.baseline;
  }
  result.durationSeconds = Math.round((performance.now() - started) / 100) / 10;
  const full: BenchResult = { ...result, targets: evaluateTargets(result) };
  console.log(`\n${tables(full)}`);
  const path = writeJson(full, args.resultsDir);
  log(`wrote ${path}`);
  if (!args.quick && args.docs && args.only.length === SCENARIOS.length) {
    const docs = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
    writeDocs(full, docs, METHOD);
    log(`wrote ${docs}`);
  }
  if (failures.length) throw new Error(`scenarios failed: ${failures.join('; ')}`);
}

main().catch((err: unknown) => {
  console.error('bench failed:', err);
  process.exitCode = 1;
});
