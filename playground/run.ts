/**
 * `npm run playground`: a local Discord in the browser. The real bot (as `npm start` runs it) against the built-in
 * Discord and gateway emulators, and a page at http://127.0.0.1:3000/ (`--port N` or PLAYGROUND_PORT to change it)
 * where you run /imagine and /edit, click the result's buttons, fill its modals and watch progress arrive, as any
 * member, with any roles, in any of the bot's languages. No Discord application or gateway account needed. Ctrl-C
 * stops the bot, the emulators and the page.
 */
import { startPlayground } from './server.js';

const DEFAULT_PORT = 3000;

/** `--port N` (or `--port=N`), else PLAYGROUND_PORT, else 3000. */
function portOf(argv: readonly string[], env: NodeJS.ProcessEnv): number {
  const index = argv.findIndex((arg) => arg === '--port' || arg.startsWith('--port='));
  const raw = index === -1 ? env['PLAYGROUND_PORT'] : (argv[index]?.split('=')[1] ?? argv[index + 1]);
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`the playground's port must be a whole number 0–65535, not ${JSON.stringify(raw)}`);
  return port;
}

const say = (line: string) => process.stdout.write(`${line}\n`);
try {
  say('Starting the Discord emulator, the gateway emulator and the bot…');
  const playground = await startPlayground({ port: portOf(process.argv.slice(2), process.env) });
  say(`Playground ready: ${playground.url}  (Ctrl-C stops it)`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`\n${signal}: stopping the bot and the emulators…`);
    playground.close().then(
      () => {
        say('Stopped.');
        process.exit(0);
      },
      (err: unknown) => {
        process.stderr.write(`playground: stopping failed: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
} catch (err) {
  process.stderr.write(`playground failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
}
