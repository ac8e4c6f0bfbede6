/**
 * The process around a running bot: start it, and shut it down gracefully on SIGTERM or SIGINT and also after an
 * unhandled rejection or an uncaught exception, which are logged with their error first. No silent death: every
 * way out goes through stop() (queued members are told and refunded, running jobs get the grace period) and
 * exits with a status that says how it ended.
 */
import type { Logger } from 'pino';

/** What the lifecycle needs of a started bot. */
export interface Stoppable {
  logger: Logger;
  stop(): Promise<void>;
}

/** The process seams, so a test can run the lifecycle in a child process of its own. */
export interface LifecycleProcess {
  once(event: 'SIGTERM' | 'SIGINT', listener: (signal: string) => void): unknown;
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  on(event: 'uncaughtException', listener: (error: Error) => void): unknown;
  exit(code: number): never;
  stderr: { write(text: string): unknown };
}

/** Why the process is ending. */
type Ending = { kind: 'signal'; signal: string } | { kind: 'fatal'; event: 'unhandledRejection' | 'uncaughtException'; error: unknown };

/** Starts the bot with `start` and keeps the process until a signal or a fatal error ends it (see the module comment). */
export async function runUntilStopped<T extends Stoppable>(start: () => Promise<T>, proc: LifecycleProcess = process): Promise<void> {
  let bot: T | undefined;
  let ending: Ending | undefined;
  const end = (running: T, why: Ending) => {
    if (why.kind === 'signal') running.logger.info({ signal: why.signal }, 'signal received');
    else
      running.logger.fatal(
        { err: why.error, event: why.event },
        `${why.event === 'unhandledRejection' ? 'unhandled rejection' : 'uncaught exception'}: shutting down`,
      );
    // Not awaited: a handler cannot wait; the process exits either way, with status 1 after a fatal error or a failed shutdown.
    void running.stop().then(
      () => proc.exit(why.kind === 'signal' ? 0 : 1),
      (err: unknown) => {
        running.logger.error({ err }, 'shutdown failed');
        proc.exit(1);
      },
    );
  };
  const onEnding = (why: Ending) => {
    if (ending) {
      // A second fatal error while shutting down is still logged, never swallowed.
      if (why.kind !== 'fatal') return;
      if (bot) bot.logger.error({ err: why.error, event: why.event }, 'further error while shutting down');
      else proc.stderr.write(`further error while starting (${why.event}): ${describe(why.error)}\n`);
      return;
    }
    ending = why;
    if (bot) end(bot, why);
    // A fatal error before start-up finished: there is nothing to stop yet, so say what happened and exit.
    else if (why.kind === 'fatal') {
      proc.stderr.write(`imagine-bot failed while starting (${why.event}): ${describe(why.error)}\n`);
      proc.exit(1);
    }
  };
  // Installed before start-up, so a signal during login still ends in a clean shutdown.
  proc.once('SIGTERM', (signal) => onEnding({ kind: 'signal', signal }));
  proc.once('SIGINT', (signal) => onEnding({ kind: 'signal', signal }));
  proc.on('unhandledRejection', (error) => onEnding({ kind: 'fatal', event: 'unhandledRejection', error }));
  proc.on('uncaughtException', (error) => onEnding({ kind: 'fatal', event: 'uncaughtException', error }));
  try {
    bot = await start();
  } catch (err) {
    proc.stderr.write(`imagine-bot could not start: ${describe(err)}\n`);
    proc.exit(1);
  }
  if (ending) end(bot, ending);
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
