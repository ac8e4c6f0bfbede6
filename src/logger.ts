/**
 * The root pino logger. Secrets are redacted by path wherever they could appear (tokens, keys, authorization headers),
 * and errors are written without request bodies or tokens in URLs (log-errors.ts).
 */
import { pino, type Logger, type DestinationStream } from 'pino';
import { serializeError } from './log-errors.js';

/** Paths pino censors before anything is written. */
const REDACT_PATHS = [
  'token',
  '*.token',
  'apiKey',
  '*.apiKey',
  'DISCORD_TOKEN',
  '*.DISCORD_TOKEN',
  'GATEWAY_API_KEY',
  '*.GATEWAY_API_KEY',
  'authorization',
  'headers.authorization',
  '*.headers.authorization',
  'req.headers.authorization',
  'headers.Authorization',
  '*.headers.Authorization',
];

/** Options for {@link createLogger}. */
export interface LoggerOptions {
  level: string;
  /** Human-readable output (pino-pretty) for development. @default false */
  pretty?: boolean | undefined;
  /** Where to write; stdout when absent (tests pass an in-memory stream). */
  destination?: DestinationStream | undefined;
}

/** Creates the root logger; classes bind children (`logger.child({ module })`). */
export function createLogger(options: LoggerOptions): Logger {
  const base = {
    level: options.level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
    base: { service: 'imagine-bot' },
  };
  if (options.destination) return pino(base, options.destination);
  if (options.pretty) return pino({ ...base, transport: { target: 'pino-pretty', options: { colorize: true } } });
  return pino(base);
}
