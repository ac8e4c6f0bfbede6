/**
 * One image POST and its answer: build the body, send it, classify an error status, then read JSON or SSE
 * (whatever the Content-Type says, since gateways ignore `stream` both ways) and decode the images.
 */
import type pino from 'pino';
import type { Clock } from '../ports/clock.js';
import type { EditRequest, GeneratedImage, ImageFormat, ImageUsage } from '../core/images.js';
import type { CallEvents, ImageCall } from './image-stream.js';
import type { CallScope } from './call-scope.js';
import { checkImage, decodeBase64 } from './decode.js';
import { downloadLinks } from './download.js';
import { GatewayHttpError, GatewayResponseError } from './errors.js';
import { admitAnswer, malformed, readJsonAnswer } from './json-answer.js';
import { binaryIndex } from './json-image-scanner.js';
import type { GatewayDialect, ImageEndpoint } from './dialect.js';
import type { WireParams } from './params.js';
import { findRequestId, headerValue } from './request-id.js';
import { ImagesResponse, type ImageItem, type ImagesUsage } from './schemas.js';
import { readImageStream } from './sse.js';
import { normaliseUsage } from './usage.js';
import type { GatewayHttp, GatewayResponse } from './http.js';
import { toGatewayError } from './http-errors.js';
import { pollTask, type TaskPollOptions } from './task-poll.js';
import { findTask, type TaskRef } from './task-schemas.js';

/** Error bodies are small; a huge one is read no further than this and classified by status. */
const ERROR_BODY_CAP = 1024 * 1024;

/** What every exchange shares (fixed per client). */
export interface ExchangeContext {
  http: GatewayHttp;
  /** Where requests go and how their bodies are written (dialect.ts). */
  dialect: GatewayDialect;
  maxResponseBytes: number;
  /** Most pixels an image's header may declare (decode.ts). */
  maxDecodePixels: number;
  downloadTimeoutMs: number;
  clock: Clock;
  log: pino.Logger;
  /** How a task answer is polled (task-poll.ts). */
  taskPoll: Pick<TaskPollOptions, 'intervalMs' | 'sleep'>;
}

/** An image item as read: a `b64_json` value the JSON scanner already decoded arrives as `bytes`. */
type ReadItem = ImageItem & { bytes?: Buffer | undefined };

/** What an answer yields before the images are checked. */
interface ReadOutcome {
  items: ReadItem[];
  usage?: ImagesUsage | undefined;
  /** The task the answer is instead of images, to be polled. */
  task?: TaskRef | undefined;
}

/** One attempt of one image request. */
export interface ExchangeRequest {
  endpoint: ImageEndpoint;
  params: WireParams;
  /** The images and mask, for edits. */
  edit?: EditRequest | undefined;
  idempotencyKey: string;
  /** 0 for the first attempt. */
  retry: number;
  call: ImageCall;
}

/** The decoded answer of one attempt. */
export interface ExchangeResult {
  images: GeneratedImage[];
  usage?: ImageUsage | undefined;
  requestId?: string | undefined;
}

/** Sends one attempt and reads its answer; rejects with a GatewayError. */
export async function exchangeImages(ctx: ExchangeContext, req: ExchangeRequest, scope: CallScope): Promise<ExchangeResult> {
  const started = ctx.clock.now();
  const post = ctx.dialect.imagePost(req.endpoint, req.params, req.edit);
  const headers = { ...headersFor(req), 'content-type': post.contentType, ...(post.length === undefined ? {} : { 'content-length': String(post.length) }) };
  const res = await ctx.http.send({ method: 'POST', path: post.path, headers, body: post.body }, scope);
  const requestId = findRequestId(res.headers);
  ctx.log.debug({ endpoint: req.endpoint, status: res.statusCode, requestId, retry: req.retry, durationMs: ctx.clock.now() - started }, 'gateway responded');
  if (res.statusCode >= 400) throw await errorFrom(ctx, res, scope, requestId);
  const room = await admitAnswer(ctx.http, res, { maxBytes: ctx.maxResponseBytes, admit: req.call.events.admit }, scope, requestId);
  const expected = expectedFormat(req.params);
  // A JSON answer's images are checked as soon as each is decoded (their headers only: decode.ts),
  // while the rest of the answer arrives; the checks are awaited once the answer is known to be a success.
  const checks = new Map<Buffer, Promise<GeneratedImage>>();
  const startCheck = (bytes: Buffer) => {
    const check = checkImage(bytes, expected, ctx.maxDecodePixels, requestId);
    check.catch(() => undefined);
    checks.set(bytes, check);
  };
  const answer = await readItems(ctx, res, req, room, scope, requestId, startCheck);
  // A poll's images that turn out not to be the task's last are let go when the next poll is read (its room was given back).
  const { items, usage } = answer.task ? await awaitTask(ctx, answer.task, req.call, scope, requestId, startCheck, () => checks.clear()) : answer;
  if (items.length === 0) throw new GatewayResponseError('gateway returned no images', { category: 'gateway_failure', code: 'no_images', requestId });
  const images = items.every((item): item is ReadItem & { bytes: Buffer } => item.bytes !== undefined)
    ? await Promise.all(items.map((item) => checks.get(item.bytes) ?? checkImage(item.bytes, expected, ctx.maxDecodePixels, requestId)))
    : await decodeOneByOne(ctx, await withLinkedBytes(ctx, items, req.call, scope, requestId), expected, requestId);
  return { images, usage: normaliseUsage(usage, res.headers), requestId };
}

/** The items with the images their links point to downloaded (all of an answer's links at once, within its room). */
async function withLinkedBytes(ctx: ExchangeContext, items: ReadItem[], call: ImageCall, scope: CallScope, requestId: string | undefined): Promise<ReadItem[]> {
  const linked = items.filter((item) => !item.bytes && !item.b64_json && item.url);
  if (linked.length === 0) return items;
  const bytes = await downloadLinks(
    linked.map((item) => item.url ?? ''),
    { http: ctx.http, maxBytes: ctx.maxResponseBytes, timeoutMs: ctx.downloadTimeoutMs, scope, requestId, admit: call.events.admit },
  );
  return items.map((item) => {
    const index = linked.indexOf(item);
    return index === -1 ? item : { ...item, url: undefined, bytes: bytes[index] };
  });
}

/** Decodes and checks one at a time, letting go of each item (its base64 string, from a stream) once its bytes exist. */
async function decodeOneByOne(
  ctx: ExchangeContext,
  items: ReadItem[],
  expected: ImageFormat | undefined,
  requestId: string | undefined,
): Promise<GeneratedImage[]> {
  const images: GeneratedImage[] = [];
  for (let item = items.shift(); item; item = items.shift()) images.push(await decodeItem(ctx, item, expected, requestId));
  return images;
}

function headersFor(req: ExchangeRequest): Record<string, string> {
  return {
    accept: req.call.stream ? 'text/event-stream, application/json' : 'application/json',
    // Same key on every retry of this logical request, so a gateway that deduplicates can do so.
    'idempotency-key': req.idempotencyKey,
  };
}

async function errorFrom(ctx: ExchangeContext, res: GatewayResponse, scope: CallScope, requestId: string | undefined): Promise<GatewayHttpError> {
  let text = '';
  try {
    text = (await ctx.http.readCapped(res, ERROR_BODY_CAP, scope, requestId)).toString('utf8');
  } catch (err) {
    if (scope.signal.aborted) throw scope.abortError(requestId);
    ctx.log.debug({ err, requestId }, 'gateway error body unreadable');
  }
  return GatewayHttpError.fromResponse(res.statusCode, text, res.headers, ctx.clock.now());
}

async function readItems(
  ctx: ExchangeContext,
  res: GatewayResponse,
  req: ExchangeRequest,
  room: number,
  scope: CallScope,
  requestId: string | undefined,
  onDecoded: (bytes: Buffer) => void,
): Promise<ReadOutcome> {
  const contentType = headerValue(res.headers, 'content-type') ?? '';
  if (!/text\/event-stream/i.test(contentType)) return readJsonItems(ctx, res, room, scope, requestId, req.call.events, onDecoded);
  const expected = Number(req.params.get('n') ?? 1);
  return readImageStream(res.body, {
    maxBytes: room,
    expected,
    requestId,
    onPartial: req.call.events.partial,
    onPartialProblem: (err) => ctx.log.warn({ err, requestId }, 'partial image dropped'),
  }).catch((err: unknown) => {
    throw toGatewayError(err, scope, requestId);
  });
}

/** Reads a JSON answer (json-answer.ts): its images, or the task it is instead of them. */
async function readJsonItems(
  ctx: ExchangeContext,
  res: GatewayResponse,
  room: number,
  scope: CallScope,
  requestId: string | undefined,
  events: CallEvents,
  onDecoded: (bytes: Buffer) => void,
): Promise<ReadOutcome> {
  const scanned = await readJsonAnswer(ctx.http, res, room, scope, requestId, events, onDecoded);
  const parsed = ImagesResponse.safeParse(scanned.value);
  if (!parsed.success) throw malformed(requestId);
  // one-api style: a 200 that carries an error object is still an error.
  if (parsed.data.error !== undefined && !parsed.data.data?.length) throw GatewayHttpError.fromResponse(undefined, scanned.text, res.headers, ctx.clock.now());
  const items = (parsed.data.data ?? []).map((item) => withBytes(item, scanned.images));
  return { items, usage: parsed.data.usage ?? undefined, task: findTask(scanned.value) };
}

/** Polls a task answer until it has images (task-poll.ts); each poll's answer is read like a direct JSON answer. */
async function awaitTask(
  ctx: ExchangeContext,
  task: TaskRef,
  call: ImageCall,
  scope: CallScope,
  requestId: string | undefined,
  onDecoded: (bytes: Buffer) => void,
  forgetDecoded: () => void,
): Promise<ReadOutcome> {
  const fetch = async (path: string) => {
    const res = await ctx.http.send({ method: 'GET', path, headers: { accept: 'application/json' } }, scope);
    const pollId = findRequestId(res.headers) ?? requestId;
    if (res.statusCode >= 400) throw await errorFrom(ctx, res, scope, pollId);
    // The earlier poll's images are not the task's (it was still pending): dropped before this one is admitted.
    forgetDecoded();
    const room = await admitAnswer(ctx.http, res, { maxBytes: ctx.maxResponseBytes, admit: call.events.admit }, scope, pollId);
    return readJsonAnswer(ctx.http, res, room, scope, pollId, call.events, onDecoded);
  };
  const done = await pollTask({ ...ctx.taskPoll, fetch, log: ctx.log, onStatus: call.events.taskStatus }, task, scope, requestId);
  return { items: done.items.map((item) => withBytes(item, done.images)), usage: done.usage };
}

/** Swaps a scanner placeholder for its decoded bytes; an empty value stays empty, so it falls back to `url` as before. */
function withBytes(item: ImageItem, images: readonly Buffer[]): ReadItem {
  const index = item.b64_json ? binaryIndex(item.b64_json) : undefined;
  const bytes = index === undefined ? undefined : images[index];
  if (!bytes) return item;
  return bytes.byteLength > 0 ? { ...item, b64_json: undefined, bytes } : { ...item, b64_json: '' };
}

async function decodeItem(ctx: ExchangeContext, item: ReadItem, expected: ImageFormat | undefined, requestId: string | undefined): Promise<GeneratedImage> {
  let bytes: Buffer;
  if (item.bytes) bytes = item.bytes;
  else if (item.b64_json) bytes = decodeBase64(item.b64_json, ctx.maxResponseBytes, requestId);
  else
    throw new GatewayResponseError('gateway returned an image item with neither b64_json nor url', {
      category: 'gateway_failure',
      code: 'empty_item',
      requestId,
    });
  return checkImage(bytes, expected, ctx.maxDecodePixels, requestId);
}

function expectedFormat(params: WireParams): ImageFormat | undefined {
  const format = params.get('output_format');
  return format === 'png' || format === 'jpeg' || format === 'webp' ? format : undefined;
}
