/**
 * How errors are written to the log: pino's standard error serializer, minus what must never be logged. A Discord
 * REST error carries the request's URL (an interaction webhook's URL holds the interaction token) and its body (a
 * delivery's body holds the image bytes, megabytes as JSON numbers); only its status, code, method and route, with
 * tokens replaced, are kept. Causes are serialized the same way.
 */
import { pino } from 'pino';

/** Properties of an error that are never logged: request and response bodies. */
const BODY_KEYS = new Set(['requestBody', 'rawError', 'body', 'response', 'request']);
/** Webhook and interaction routes carry a token after the id. */
const TOKEN_IN_ROUTE = /\/(webhooks|interactions)\/(\d+)\/[^/?#\s"]+/g;

/** An error as it goes into a log line. */
export function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const serialized = pino.stdSerializers.err(err) as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(serialized)) {
    if (BODY_KEYS.has(key)) continue;
    out[key] = typeof value === 'string' ? redactRoutes(value) : value;
  }
  if (err.cause !== undefined) out['cause'] = serializeError(err.cause);
  return out;
}

/** `text` with the token in every webhook or interaction route replaced by `:token`. */
export function redactRoutes(text: string): string {
  return text.replace(TOKEN_IN_ROUTE, '/$1/$2/:token');
}
