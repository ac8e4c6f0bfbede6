/**
 * Reading a successful plain-JSON answer (an image answer, or a task poll's): first its room in the memory budget,
 * then the body chunk by chunk, with the base64 images decoded as they arrive.
 */
import type { AnswerMemory, AnswerSink } from '../ports/image-gateway.js';
import type { CallScope } from './call-scope.js';
import { GatewayResponseError } from './errors.js';
import { declaredLength, type GatewayHttp, type GatewayResponse } from './http.js';
import { JsonImageScanner } from './json-image-scanner.js';
import { parseJson } from './schemas.js';

/** A JSON answer as read: its parsed value and text (each image a placeholder, see binaryIndex) and the images. */
export interface JsonAnswer {
  value: unknown;
  text: string;
  images: Buffer[];
}

/**
 * The most bytes of a successful answer that may be read: an answer declared over the cap is refused before
 * anything is admitted or allocated for it (consumeCapped checks Content-Length first, then discards the body);
 * otherwise the answer waits in its socket until it has room in the memory budget, and is read no further than that.
 */
export async function admitAnswer(
  http: GatewayHttp,
  res: GatewayResponse,
  limits: { maxBytes: number; memory: AnswerMemory | undefined },
  scope: CallScope,
  requestId: string | undefined,
): Promise<number> {
  const contentLength = declaredLength(res);
  if (contentLength !== undefined && contentLength > limits.maxBytes) await http.consumeCapped(res, limits.maxBytes, scope, requestId, () => undefined);
  return limits.memory ? Math.min(await limits.memory.admit(contentLength), limits.maxBytes) : limits.maxBytes;
}

/**
 * Reads a JSON answer chunk by chunk: the scanner decodes the base64 images as they arrive, so neither the body
 * nor its images' text is ever held whole, and only the small rest of the JSON is parsed. Each decoded value goes
 * to `onDecoded` at once, and its pieces to the caller's sink while it is decoded. Rejects with a GatewayError
 * (malformed_response when the body is not JSON).
 */
export async function readJsonAnswer(
  http: GatewayHttp,
  res: GatewayResponse,
  room: number,
  scope: CallScope,
  requestId: string | undefined,
  sink: AnswerSink | undefined,
  onDecoded: (bytes: Buffer) => void,
): Promise<JsonAnswer> {
  const listener = {
    data: (index: number, bytes: Buffer) => sink?.data(index, bytes),
    end: (index: number, bytes: Buffer) => {
      if (bytes.length > 0) onDecoded(bytes);
      sink?.end(index, bytes);
    },
  };
  const scanner = new JsonImageScanner(listener, declaredLength(res), sink && ((bytes) => sink.buffer(bytes)));
  await http.consumeCapped(res, room, scope, requestId, (chunk) => scanner.push(chunk));
  const scanned = scanner.end();
  const value = scanned && parseJson(scanned.json);
  if (!scanned || value === undefined) throw malformed(requestId);
  return { value, text: scanned.json, images: scanned.images };
}

/** The error for an answer that is not what a gateway sends. */
export function malformed(requestId: string | undefined): GatewayResponseError {
  return new GatewayResponseError('gateway answered with a malformed body', { category: 'gateway_failure', code: 'malformed_response', requestId });
}
