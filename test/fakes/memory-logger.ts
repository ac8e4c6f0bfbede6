/**
 * A real pino logger writing JSON lines into memory, so tests assert on what would reach the log.
 */
import pino from 'pino';

/** One parsed log line. */
export type LogLine = Record<string, unknown> & { level: number; msg?: string };

/** pino's numeric levels, for readable assertions. */
export const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const;

/** A debug-level logger and the lines it wrote, parsed. */
export function memoryLogger(): { logger: pino.Logger; lines: LogLine[]; find: (msg: string) => LogLine[] } {
  const lines: LogLine[] = [];
  const stream = {
    write(line: string): void {
      lines.push(JSON.parse(line) as LogLine);
    },
  };
  const logger = pino({ level: 'debug' }, stream);
  return { logger, lines, find: (msg) => lines.filter((l) => l.msg === msg) };
}

/** For tests that do not look at logs. */
export const silentLogger = pino({ level: 'silent' });
