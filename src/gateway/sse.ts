/**
 * Reads an image SSE stream with eventsource-parser. Events are told apart by the JSON `type` (new-api re-emits
 * bare `data:` lines without `event:`), comments and keep-alives are ignored, and `[DONE]` ends the stream.
 * Reading stops once the expected number of completed images has arrived: a relay may keep the socket open.
 *
 * @see ../../../shared/docs/image-gateway.md §0.5, §2.5, §4.2.1 (SSE writer), §4.2.2 (PING comments)
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Readable } from 'node:stream';
import type { PartialImage } from '../core/images.js';
import { sniffImageFormat } from '../core/image-rules.js';
import { GatewayHttpError, GatewayResponseError } from './errors.js';
import { decodeBase64 } from './decode.js';
import { findRequestId, stripRequestId } from './request-id.js';
import { ErrorObject, ImageStreamEvent, type ImageItem, type ImagesUsage, parseJson } from './schemas.js';

/** What a finished stream yields: the completed items, in order, and the usage of the last one that had it. */
export interface StreamOutcome {
  items: ImageItem[];
  usage?: ImagesUsage | undefined;
}

/** How to read one stream. */
export interface StreamOptions {
  maxBytes: number;
  /** Completed images to wait for (the request's n). */
  expected: number;
  requestId?: string | undefined;
  onPartial?: ((image: PartialImage) => void) | undefined;
  /** Called when a partial image cannot be decoded or the caller's handler throws; the stream goes on. */
  onPartialProblem?: ((err: unknown) => void) | undefined;
}

interface Step {
  done: boolean;
}

/** Consumes the body; resolves with the completed items or rejects with a GatewayError. */
export async function readImageStream(body: Readable, opts: StreamOptions): Promise<StreamOutcome> {
  const outcome: StreamOutcome = { items: [] };
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event), maxBufferSize: opts.maxBytes });
  const decoder = new TextDecoder();
  const step: Step = { done: false };
  let total = 0;
  let partials = 0;
  // Leaving the loop early destroys the body; undici then emits an abort error nobody else listens for.
  body.on('error', () => undefined);
  const drain = (): void => {
    for (const event of pending.splice(0)) {
      if (step.done) return;
      partials = handleEvent(event, outcome, opts, partials, step);
    }
  };
  for await (const chunk of body) {
    if (!Buffer.isBuffer(chunk)) continue;
    total += chunk.byteLength;
    if (total > opts.maxBytes)
      throw new GatewayResponseError(`gateway stream exceeds the ${opts.maxBytes}-byte limit`, {
        category: 'gateway_failure',
        code: 'response_too_large',
        requestId: opts.requestId,
      });
    parser.feed(decoder.decode(chunk, { stream: true }));
    drain();
    if (step.done) break;
  }
  // A last event without its closing blank line still counts (relays cut the stream right after it).
  if (!step.done) parser.feed('\n\n');
  drain();
  if (outcome.items.length === 0) {
    throw new GatewayResponseError('gateway stream ended before the image was completed', {
      category: 'gateway_failure',
      code: 'stream_incomplete',
      requestId: opts.requestId,
    });
  }
  return outcome;
}

function handleEvent(event: EventSourceMessage, outcome: StreamOutcome, opts: StreamOptions, partials: number, step: Step): number {
  if (event.data.trim() === '[DONE]') {
    step.done = true;
    return partials;
  }
  const parsed = ImageStreamEvent.safeParse(parseJson(event.data));
  if (!parsed.success) {
    throw new GatewayResponseError('gateway sent a malformed stream event', {
      category: 'gateway_failure',
      code: 'malformed_event',
      requestId: opts.requestId,
    });
  }
  const data = parsed.data;
  if (event.event === 'error' || data.type === 'error' || data.error !== undefined) throw streamError(data.error ?? parsed.data, opts.requestId);
  const type = data.type ?? '';
  if (type.endsWith('.partial_image') && data.b64_json) {
    reportPartial(data.b64_json, data.partial_image_index ?? partials, opts);
    return partials + 1;
  }
  if (type.endsWith('.completed')) {
    outcome.items.push({ b64_json: data.b64_json, url: data.url });
    if (data.usage) outcome.usage = data.usage;
    if (outcome.items.length >= opts.expected) step.done = true;
  }
  return partials;
}

function reportPartial(b64: string, index: number, opts: StreamOptions): void {
  if (!opts.onPartial) return;
  try {
    const bytes = decodeBase64(b64, opts.maxBytes, opts.requestId);
    const format = sniffImageFormat(bytes);
    if (!format) throw new Error('partial image is not a png, jpeg or webp image');
    opts.onPartial({ index, bytes, format });
  } catch (err) {
    // A broken preview must not cost the member the final image.
    opts.onPartialProblem?.(err);
  }
}

/** An error event: `event: error`, `{"type":"error","error":{…}}`, or any data with an `error` key. */
function streamError(value: unknown, requestId: string | undefined): GatewayHttpError {
  const object = ErrorObject.safeParse(value);
  const message = object.success ? (object.data.message ?? '') : '';
  const info = object.success
    ? { code: object.data.code, type: object.data.type ?? undefined, param: object.data.param, message: stripRequestId(message) }
    : { message: '' };
  return GatewayHttpError.fromFailure(info, requestId ?? findRequestId({}, message));
}
