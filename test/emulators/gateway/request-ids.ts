/**
 * Request ids in the two formats seen on the wire.
 * - OpenAI `x-request-id`: `req_` + 32 hex digits.
 * - one-api/new-api: local time `yyyyMMddHHmmss` + 9 sub-second digits + 8 letters/digits, e.g.
 *   `20260715212753274771513fAg1k3QO` (image-gateway.md §4.2.3).
 */
import { randomBytes } from 'node:crypto';
import type { RequestIdHeader } from './types.js';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A fresh request id in the style that goes with the header name. */
export function createRequestId(header: RequestIdHeader): string {
  if (header === 'x-request-id') return `req_${randomBytes(16).toString('hex')}`;
  const now = new Date();
  const pad = (value: number, width: number): string => String(value).padStart(width, '0');
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1, 2)}${pad(now.getDate(), 2)}${pad(now.getHours(), 2)}${pad(now.getMinutes(), 2)}${pad(now.getSeconds(), 2)}`;
  const subSecond = `${pad(now.getMilliseconds(), 3)}${pad(Number(process.hrtime.bigint() % 1_000_000n), 6)}`;
  const suffix = Array.from(randomBytes(8), (b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join('');
  return `${stamp}${subSecond}${suffix}`;
}
