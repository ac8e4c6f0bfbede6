/**
 * `npm start`: validate the configuration first — a bad one exits 1 at once, before any network call and before
 * the heavy modules load — then hand over to the composition root.
 */
import { ConfigError, loadConfigFromProcess, type Config } from './config.js';

let config: Config;
try {
  config = loadConfigFromProcess();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`${err.message}\nSee docs/configuration.md.\n`);
  process.exit(1);
}
const { runBot } = await import('./main.js');
await runBot(config);
