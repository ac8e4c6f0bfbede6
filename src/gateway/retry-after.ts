/**
 * Retry-After as the gateway family sends it: `retry-after-ms` (OpenAI), or `Retry-After` in seconds or as an
 * HTTP date (RFC 9110 §10.2.3).
 */
import { headerValue, type ResponseHeaders } from './request-id.js';

/**
 * Milliseconds the server asked us to wait: `retry-after-ms`, then `Retry-After` in seconds or as an HTTP date.
 * Undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: ResponseHeaders, nowMs: number): number | undefined {
  const ms = headerValue(headers, 'retry-after-ms');
  if (ms !== undefined && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const value = headerValue(headers, 'retry-after');
  if (value === undefined) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
