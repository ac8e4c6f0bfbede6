/**
 * One HTTP exchange on the injected undici dispatcher, with undici's failures mapped to gateway errors and bodies
 * read under a size cap.
 *
 * @see https://undici.nodejs.org/#/docs/api/Dispatcher?id=dispatcherrequestoptions-callback
 */
import { request, type Dispatcher, type FormData } from 'undici';
import type { CallScope } from './call-scope.js';
import { GatewayConnectionError, GatewayError, GatewayResponseError, GatewayTimeoutError } from './errors.js';
import { spendTurnBytes } from './turn-budget.js';

/** A response as undici's request() returns it. */
export type GatewayResponse = Dispatcher.ResponseData;

/** What to send. */
export interface OutgoingRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string | FormData | undefined;
}

// Failures that happen while connecting, before the request line is written: the gateway never saw the request.
const BEFORE_SEND_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CONNECT',
]);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code: unknown = Reflect.get(err, 'code');
  if (typeof code === 'string' && code !== 'UND_ERR') return code;
  return errorCode(Reflect.get(err, 'cause'));
}

/** Maps anything thrown while sending or reading to a GatewayError (cancel and deadline via the scope). */
export function toGatewayError(err: unknown, scope: CallScope, requestId?: string): GatewayError {
  if (err instanceof GatewayError) return err;
  if (scope.signal.aborted) return scope.abortError(requestId);
  const code = errorCode(err);
  if (code && TIMEOUT_CODES.has(code)) return new GatewayTimeoutError(`gateway timed out (${code})`, { code, requestId, cause: err });
  if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
    return new GatewayResponseError('gateway response was truncated', { category: 'gateway_failure', code, requestId, cause: err });
  }
  const beforeSend = code !== undefined && BEFORE_SEND_CODES.has(code);
  return new GatewayConnectionError(`gateway connection failed (${code ?? 'unknown'})`, { code, requestId, beforeSend, cause: err });
}

/** Sends one request; rejects with a GatewayError. */
export async function send(dispatcher: Dispatcher, req: OutgoingRequest, scope: CallScope): Promise<GatewayResponse> {
  try {
    return await request(req.url, { dispatcher, method: req.method, headers: req.headers, body: req.body ?? null, signal: scope.signal });
  } catch (err) {
    throw toGatewayError(err, scope);
  }
}

/**
 * Reads a body into one Buffer, refusing more than `maxBytes` (checked against Content-Length first, then while
 * reading, so an oversized body is never held whole).
 */
export async function readCapped(res: GatewayResponse, maxBytes: number, scope: CallScope, requestId?: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const total = await consumeCapped(res, maxBytes, scope, requestId, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks, total);
}

/**
 * Hands a body to `onChunk` chunk by chunk, refusing more than `maxBytes` like {@link readCapped}; resolves with the
 * byte count. Chunks are handed over within the shared per-turn budget (see turn-budget.ts), so consumers that
 * work per chunk never hold the event loop for long, however many bodies arrive together. `onChunk` must not throw
 * (anything thrown is reported as a connection failure).
 */
export async function consumeCapped(
  res: GatewayResponse,
  maxBytes: number,
  scope: CallScope,
  requestId: string | undefined,
  onChunk: (chunk: Buffer) => void,
): Promise<number> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    discard(res);
    throw tooLarge(maxBytes, requestId);
  }
  let total = 0;
  try {
    for await (const chunk of res.body) {
      if (!Buffer.isBuffer(chunk)) continue;
      total += chunk.byteLength;
      if (total > maxBytes) {
        discard(res);
        throw tooLarge(maxBytes, requestId);
      }
      await spendTurnBytes(chunk.byteLength);
      onChunk(chunk);
    }
  } catch (err) {
    throw toGatewayError(err, scope, requestId);
  }
  return total;
}

/** Stops reading a body we will not use; undici reports the abort as an error event, which is expected here. */
function discard(res: GatewayResponse): void {
  res.body.on('error', () => undefined);
  res.body.destroy();
}

/** The error for a body beyond the cap. */
export function tooLarge(maxBytes: number, requestId?: string): GatewayResponseError {
  return new GatewayResponseError(`gateway response exceeds the ${maxBytes}-byte limit`, {
    category: 'gateway_failure',
    code: 'response_too_large',
    requestId,
  });
}
