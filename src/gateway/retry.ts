/**
 * When to retry an image request, and how long to wait.
 *
 * Image generation is a paid, non-idempotent POST: retry only what cannot have produced an image. Anything that
 * may have reached the model (a timeout, 504, 524, a reset after the body was sent, a 500) is handed back to the
 * member instead, because a retry could generate and bill twice.
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
  return false;
}

/** The wait before retry `retryIndex` (0-based): Retry-After up to `capMs` when given, else backoff with jitter. */
export function retryDelay(retryIndex: number, retryAfterMs: number | undefined, capMs: number, random: () => number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, capMs);
  const base = Math.min(BACKOFF.initialMs * 2 ** retryIndex, BACKOFF.maxMs);
  return Math.round(base * (1 - random() * BACKOFF.jitter));
}
