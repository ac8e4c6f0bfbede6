/**
 * Carries out one Behaviour on a response: success (JSON or SSE), a preset error, raw bytes, or a broken
 * transport (reset, truncated body, non-JSON body, oversized body).
 */
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { renderPreset, type PresetContext } from './error-presets.js';
import { sseHeaders, writeFrames } from './sse.js';
import type { Behaviour, ErrorPreset, RawBehaviour, StreamErrorBehaviour, SuccessBehaviour } from './types.js';
import type { BodyHold } from './state.js';

/** A complete answer: status, headers and the body split into writes. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  frames: (string | Buffer)[];
}

/** Request-specific inputs of a behaviour. */
export interface BehaviourContext {
  preset: PresetContext;
  /** The success answer; `jsonOnly` forces plain JSON even for stream requests (used by truncate). */
  success(behaviour: SuccessBehaviour, jsonOnly: boolean): Promise<Answer>;
  /** Whether the success answer will be an event stream. */
  streams(behaviour: SuccessBehaviour): boolean;
  /** Delay before a success answer when the behaviour sets none, counted from `startedAt`. */
  defaultDelayMs: number;
  /** performance.now() when the gateway began on the request (its arrival, or a hold's release). */
  startedAt: number;
  /** Abortable sleep; resolves early when the emulator closes. */
  sleep(ms: number): Promise<void>;
  /** The pending hold inside a success answer's body (GatewayEmulator.holdBody), taken. */
  takeBodyHold(): BodyHold | undefined;
  /**
   * Behind Cloudflare (GatewayEmulatorOptions.cloudflare): how long, from `startedAt`, an answer may take to send its
   * headers before Cloudflare answers 524 in its place. Undefined: no proxy in front.
   */
  proxyTimeoutMs?: number | undefined;
}

// What an HTML error page from a proxy in front of the gateway looks like (image-gateway.md §6 "non-JSON/HTML bodies").
const PROXY_PAGE =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** Runs a behaviour to completion (the response is ended or its socket destroyed). */
export async function runBehaviour(behaviour: Behaviour, res: ServerResponse, ctx: BehaviourContext): Promise<void> {
  switch (behaviour.type) {
    case 'success': {
      const delayMs = behaviour.delayMs ?? ctx.defaultDelayMs;
      if (ctx.streams(behaviour)) return sendPaced(res, behaviour, delayMs, ctx);
      if (await cutByProxy(res, delayMs, ctx)) return;
      // Build the body only after the delay, so many slow requests in flight hold no image bytes.
      await ctx.sleep(delayMs - (performance.now() - ctx.startedAt));
      const answer = await ctx.success(behaviour, false);
      const hold = ctx.takeBodyHold();
      if (hold) return sendHeld(res, answer, hold);
      return sendAnswer(res, { ...answer, headers: { ...answer.headers, ...behaviour.headers } });
    }
    case 'error':
      if (await cutByProxy(res, behaviour.delayMs ?? 0, ctx)) return;
      await ctx.sleep((behaviour.delayMs ?? 0) - (performance.now() - ctx.startedAt));
      return sendPreset(
        res,
        behaviour.preset,
        behaviour.lang ?? 'en',
        { ...ctx.preset, ...(behaviour.param === undefined ? {} : { param: behaviour.param }) },
        {
          ...(behaviour.retryAfter === undefined ? {} : { 'retry-after': behaviour.retryAfter }),
          ...behaviour.headers,
        },
      );
    case 'raw':
      return sendRaw(res, behaviour);
    case 'stream-error':
      return sendStreamError(res, behaviour, ctx);
    case 'reset':
      res.socket?.destroy();
      return;
    case 'truncate': {
      const answer = await ctx.success({ type: 'success' }, true);
      const body = bodyOf(answer);
      res.writeHead(200, { ...answer.headers, 'content-length': String(body.length) });
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.destroy());
      return;
    }
    case 'malformed':
      return sendAnswer(res, { status: 200, headers: { 'content-type': 'application/json' }, frames: [PROXY_PAGE] });
    case 'oversized':
      return sendAnswer(res, { status: 200, headers: { 'content-type': 'application/json' }, frames: [oversizedBody(behaviour.bytes)] });
  }
}

/**
 * Behind Cloudflare, an answer that would send its headers only after the proxy's timeout is replaced, at that
 * moment, by Cloudflare's 524 (the gateway goes on working unseen). True when it was.
 */
async function cutByProxy(res: ServerResponse, delayMs: number, ctx: BehaviourContext): Promise<boolean> {
  if (ctx.proxyTimeoutMs === undefined || delayMs <= ctx.proxyTimeoutMs) return false;
  await ctx.sleep(ctx.proxyTimeoutMs - (performance.now() - ctx.startedAt));
  await sendPreset(res, 'cloudflare_524', 'en', ctx.preset);
  return true;
}

// Response headers of the gateway itself, which an answer written by a proxy in front of it does not carry.
const GATEWAY_HEADERS = ['x-request-id', 'x-oneapi-request-id', 'x-api-request-id'];

/** Sends a preset error with the gateway's request-id suffix (or a proxy's own page, without the gateway's headers). */
export async function sendPreset(
  res: ServerResponse,
  preset: ErrorPreset,
  lang: 'en' | 'zh',
  ctx: PresetContext,
  headers: Record<string, string> = {},
): Promise<void> {
  if (renderPreset(preset, lang, ctx).proxied) for (const name of GATEWAY_HEADERS) res.removeHeader(name);
  const answer = presetAnswer(preset, lang, ctx);
  return sendAnswer(res, { ...answer, headers: { ...answer.headers, ...headers } });
}

/** A preset error as an answer. */
export function presetAnswer(preset: ErrorPreset, lang: 'en' | 'zh', ctx: PresetContext): Answer {
  const rendered = renderPreset(preset, lang, ctx);
  const frames = rendered.text === '' ? [] : [rendered.text];
  const base: Record<string, string> = rendered.text === '' ? { 'content-length': '0' } : { 'content-type': rendered.contentType };
  return { status: rendered.status, headers: { ...base, ...rendered.headers }, frames };
}

/** Writes an answer, one frame per write, and ends it. */
export async function sendAnswer(res: ServerResponse, answer: Answer): Promise<void> {
  if (res.destroyed) return;
  const single = answer.frames.length === 1 ? answer.frames[0] : undefined;
  const headers = single === undefined ? answer.headers : { 'content-length': String(Buffer.byteLength(single)), ...answer.headers };
  res.writeHead(answer.status, headers);
  await writeFrames(res, answer.frames);
}

/** An answer's frames as one body. */
function bodyOf(answer: Answer): Buffer {
  return Buffer.concat(answer.frames.map((f) => (typeof f === 'string' ? Buffer.from(f) : f)));
}

/** Sends the first part of the body, waits for the hold's decision, then finishes or cuts the connection. */
async function sendHeld(res: ServerResponse, answer: Answer, hold: BodyHold): Promise<void> {
  const body = bodyOf(answer);
  const at = Math.floor(body.length * hold.fraction);
  res.writeHead(answer.status, { ...answer.headers, 'content-length': String(body.length) });
  await new Promise<void>((resolve) => res.write(body.subarray(0, at), () => resolve()));
  hold.reached();
  if ((await hold.decision) === 'cut') return void res.destroy();
  await writeFrames(res, [body.subarray(at)]);
}

/**
 * A stream sends its headers at once and spreads the processing delay over its events, as OpenAI does: the
 * partial images are what keeps a slow stream's connection busy (image-gateway.md §2.5).
 */
async function sendPaced(res: ServerResponse, behaviour: SuccessBehaviour, delayMs: number, ctx: BehaviourContext): Promise<void> {
  res.writeHead(200, { ...sseHeaders(), ...behaviour.headers });
  res.flushHeaders();
  const answer = await ctx.success(behaviour, false);
  const step = answer.frames.length > 0 ? delayMs / answer.frames.length : delayMs;
  for (const frame of answer.frames) {
    await ctx.sleep(step);
    if (res.destroyed) return;
    await new Promise<void>((resolve) => res.write(frame, () => resolve()));
  }
  if (!res.destroyed) res.end();
}

async function sendStreamError(res: ServerResponse, behaviour: StreamErrorBehaviour, ctx: BehaviourContext): Promise<void> {
  const framing = behaviour.sseFraming ?? 'event';
  const stream = await ctx.success({ type: 'success', sseFraming: framing, forceStream: true }, false);
  const partials = stream.frames.filter((f) => String(f).includes('.partial_image"')).slice(0, behaviour.partials ?? 0);
  // The shape a third-party gateway's tests use for a failed image stream (image-gateway.md §2.5).
  const error = {
    type: 'error',
    error: { type: 'image_generation_server_error', code: 'image_generation_failed', message: behaviour.message ?? 'Image generation failed', param: null },
  };
  const frame = framing === 'event' ? `event: error\ndata: ${JSON.stringify(error)}\n\n` : `data: ${JSON.stringify(error)}\n\n`;
  res.writeHead(200, sseHeaders());
  await writeFrames(res, [...partials, frame]);
}

async function sendRaw(res: ServerResponse, raw: RawBehaviour): Promise<void> {
  res.writeHead(raw.status, raw.headers ?? {});
  const write = async (parts: readonly (string | Buffer)[]) => {
    for (const part of parts) {
      if (res.destroyed) return;
      await new Promise<void>((resolve) => res.write(part, () => resolve()));
    }
  };
  await write(raw.body === undefined ? [] : [raw.body]);
  await raw.gate;
  await write(raw.chunks ?? []);
  if (res.destroyed) return;
  if (raw.destroyAfter) res.destroy();
  else res.end();
}

/** A JSON ImagesResponse of exactly `bytes` bytes: a real tiny PNG in base64, padded out. */
function oversizedBody(bytes: number): string {
  const head = `{"created":${Math.floor(Date.now() / 1000)},"data":[{"b64_json":"${TINY_PNG_BASE64}`;
  const tail = '"}]}';
  const room = Math.max(0, bytes - head.length - tail.length);
  // Base64 padding of zero bytes ('A') keeps it decodable; the remainder becomes JSON whitespace.
  const pad = room - (room % 4);
  return `${head}${'A'.repeat(pad)}${tail}${' '.repeat(room - pad)}`;
}

// A 1x1 PNG of 90 bytes: a multiple of 3, so its base64 has no '=' and zero bytes can follow it.
const TINY_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADElEQVQImWNwaDgBAAKMAYm4HoCyAAAAAElFTkSuQmCC';
