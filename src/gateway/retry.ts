/**
 * When to retry an image request, and how long to wait.
 *
 * Image generation is a paid, non-idempotent POST: retry only what cannot have produced an image. Anything that
 * may have reached the model (a timeout, 504, 524, a reset after the body was sent, a 500) is handed back to the
 * member instead, because a retry could generate and bill twice. Cloudflare's 524 in particular means it cut a call
 * that ran past its 100 s while the upstream went on and billed (QuantumNous/new-api#4921).
 *
 * @see ../../../shared/docs/image-gateway.md §0.8, §3.2, §4.2.2 (new-api never retries 504/524)
 */
import { GatewayConnectionError, GatewayHttpError, type GatewayError } from './errors.js';

/** Backoff before retry n (0-based): 0.5 s · 2ⁿ, capped at 8 s, less up to 25 % jitter (as openai-node). */
const BACKOFF = { initialMs: 500, maxMs: 8_000, jitter: 0.25 } as const;

/** True when the failure cannot have produced (or billed) an image, so asking again is safe. */
export function isRetryable(error: GatewayError): boolean {
  if (error instanceof GatewayConnectionError) {
    // Refused, unresolvable or unreachable before a byte was written: the gateway never saw the request.
    return error.beforeSend && error.category !== 'timed_out';
  }
  if (!(error instanceof GatewayHttpError)) return false;
  // Rate limiter or saturation: refused before processing. A 429 that means "out of credit" is not.
  if (error.status === 429) return error.category === 'busy';
  // 502/503 come from the gateway itself (no channel up, upstream refused); an unknown model stays unknown.
  if (error.status === 502 || error.status === 503) return error.category === 'busy' || error.category === 'gateway_failure';
  return isUnreachedOrigin(error);
}

/**
 * Cloudflare's own 521, 522 or 523: it could not reach the gateway, so the request never got there. Only an answer
 * with both Cloudflare headers counts; the same status from anywhere else (a relay passing on its upstream's) may
 * have been processed.
 */
function isUnreachedOrigin(error: GatewayHttpError): boolean {
  return error.proxy === 'cloudflare' && (error.status === 521 || error.status === 522 || error.status === 523);
}

/**
 * How many retries one logical request may have made when `error` ends an attempt, for it to be retried once more:
 * `maxRetries` for what is retryable, none for the rest. Cloudflare's 521–523 get one retry only: a gateway
 * Cloudflare cannot reach is seldom back within seconds, and each retry keeps the member waiting.
 */
export function retryLimit(error: GatewayError, maxRetries: number): number {
  if (!isRetryable(error)) return 0;
  return error instanceof GatewayHttpError && isUnreachedOrigin(error) ? Math.min(1, maxRetries) : maxRetries;
}

/** The wait before retry `retryIndex` (0-based): Retry-After up to `capMs` when given, else backoff with jitter. */
export function retryDelay(retryIndex: number, retryAfterMs: number | undefined, capMs: number, random: () => number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, capMs);
  const base = Math.min(BACKOFF.initialMs * 2 ** retryIndex, BACKOFF.maxMs);
  return Math.round(base * (1 - random() * BACKOFF.jitter));
}
