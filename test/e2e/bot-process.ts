/**
 * A real bot process (`src/cli.ts`, as `npm start` runs it) for the multi-process end-to-end tests, with its output
 * kept for assertions and waits.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import type { Readable } from 'node:stream';

export type BotProcess = ChildProcessByStdio<null, Readable, Readable> & { output: () => string };

/** Starts `src/cli.ts` with exactly `env` (see bot-process-env.ts). */
export function startBotProcess(env: Record<string, string>): BotProcess {
  const repo = new URL('../..', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--import', 'tsx', `${repo}src/cli.ts`], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return Object.assign(child, { output: () => output });
}

/** Resolves once the bot's output contains `text` (already or later); rejects if the process exits first. */
export function logged(bot: BotProcess, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (bot.output().includes(text)) {
        bot.stdout.off('data', check);
        bot.off('exit', exited);
        resolve();
      }
    };
    const exited = () => reject(new Error(`bot exited before logging ${text}:\n${bot.output()}`));
    bot.stdout.on('data', check);
    bot.once('exit', exited);
    check();
  });
}

/** Ends the process with `signal` (SIGTERM: a graceful stop) and waits for its exit; a no-op once it has exited. */
export async function stopBotProcess(bot: BotProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (bot.exitCode !== null || bot.signalCode !== null) return;
  const exited = once(bot, 'exit');
  bot.kill(signal);
  await exited;
}
