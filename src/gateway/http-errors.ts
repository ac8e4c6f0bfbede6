/**
 * undici's failures (refused, timed out, truncated) as gateway errors, and the error for an oversized body.
 */
import type { CallScope } from './call-scope.js';
import { GatewayConnectionError, GatewayError, GatewayResponseError, GatewayTimeoutError } from './errors.js';

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

/** The error for a body beyond the cap. */
export function tooLarge(maxBytes: number, requestId?: string): GatewayResponseError {
  return new GatewayResponseError(`gateway response exceeds the ${maxBytes}-byte limit`, {
    category: 'gateway_failure',
    code: 'response_too_large',
    requestId,
  });
}
