/**
 * POST /v1/chat/completions: the gateway's chat models, for prompt help. The body is validated against the
 * official spec (vision inputs included: an `image_url` part must be a data URL of a PNG, JPEG, WebP or GIF image,
 * as the bot sends them), the model must be listed, then the next queued chat behaviour answers (by default a
 * rewrite of the last user text): plain JSON, or an event stream when `stream: true` was asked (or forced).
 */
import type { ServerResponse } from 'node:http';
import { loadSpecValidator } from '../../support/openapi.js';
import { runBehaviour, sendAnswer, sendPreset, type Answer } from './behaviours.js';
import { withRequestId, type PresetContext } from './error-presets.js';
import { detectFormat } from './images.js';
import { sseFrames, sseHeaders } from './sse.js';
import type { EmulatorState } from './state.js';
import type { RecordedRequest, SuccessBehaviour } from './types.js';

/** Parses the JSON body into `record.json` and records what the spec (and the data URL check) finds wrong. */
export function parseChatBody(record: RecordedRequest, body: Buffer): void {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    json = undefined;
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    record.specErrors.push('openai: /chat/completions body is not a JSON object');
    return;
  }
  record.json = json as Record<string, unknown>;
  const validator = loadSpecValidator('openai');
  if (validator) record.specErrors.push(...validator.validateRequest('post', '/chat/completions', 'application/json', record.json, 'json'));
}

/** The `image_url` URLs of the request's messages, in order. */
export function imageUrlsOf(json: Record<string, unknown> | undefined): string[] {
  const messages = Array.isArray(json?.['messages']) ? (json['messages'] as unknown[]) : [];
  return messages.flatMap((message) => {
    const content = (message as { content?: unknown }).content;
    if (!Array.isArray(content)) return [];
    return content.flatMap((part: { type?: unknown; image_url?: { url?: unknown } }) =>
      part.type === 'image_url' && typeof part.image_url?.url === 'string' ? [part.image_url.url] : [],
    );
  });
}

/** The text of the last user message (its text parts joined). */
export function lastUserText(json: Record<string, unknown> | undefined): string {
  const messages = Array.isArray(json?.['messages']) ? (json['messages'] as { role?: unknown; content?: unknown }[]) : [];
  const user = messages.filter((m) => m.role === 'user').at(-1);
  if (typeof user?.content === 'string') return user.content;
  if (!Array.isArray(user?.content)) return '';
  return user.content.map((part: { type?: unknown; text?: unknown }) => (part.type === 'text' && typeof part.text === 'string' ? part.text : '')).join(' ');
}

/** Answers an authorised chat POST. */
export async function handleChatPost(
  state: EmulatorState,
  record: RecordedRequest,
  res: ServerResponse,
  presetCtx: PresetContext,
  startedAt: number,
): Promise<void> {
  if (record.specErrors.length > 0) return sendInvalid(res, presetCtx.requestId, null, `Invalid request: ${record.specErrors.join('; ')}`);
  const json = record.json ?? {};
  const model = typeof json['model'] === 'string' ? json['model'] : '';
  const ctx = { ...presetCtx, model };
  if (!state.settings.models.includes(model)) return sendPreset(res, 'unknown_model', state.settings.lang, ctx);
  const badImage = imageUrlsOf(json).find((url) => !isImageDataUrl(url));
  if (badImage !== undefined)
    return sendInvalid(res, ctx.requestId, 'messages', 'Invalid image_url: expected a base64 data URL of a PNG, JPEG, WebP or GIF image.');
  await state.passChatHold(record);
  const asked = json['stream'] === true;
  const behaviour = state.chatQueue.shift() ?? { type: 'success' };
  await runBehaviour(behaviour, res, {
    preset: ctx,
    startedAt,
    defaultDelayMs: 0,
    sleep: (ms) => state.sleep(ms),
    takeBodyHold: () => undefined,
    proxyTimeoutMs: state.settings.cloudflare?.timeoutMs,
    streams: (b) => (asked || b.forceStream === true) && !b.ignoreStream,
    success: (b, jsonOnly) => Promise.resolve(chatAnswer(json, model, b, !jsonOnly && (asked || b.forceStream === true) && !b.ignoreStream)),
  });
}

/** The default answer: the last user text, "enhanced". */
export function defaultChatText(json: Record<string, unknown>): string {
  return imageUrlsOf(json).length > 0
    ? 'An emulated description.\n1. an emulated photo\n2. an emulated painting\n3. an emulated sketch\n4. an emulated render'
    : `${lastUserText(json)}, highly detailed, soft light`;
}

function chatAnswer(json: Record<string, unknown>, model: string, behaviour: SuccessBehaviour, stream: boolean): Answer {
  const text = behaviour.content ?? defaultChatText(json);
  const promptTokens = Math.max(1, Math.ceil(JSON.stringify(json['messages'] ?? '').length / 4));
  const completionTokens = Math.max(1, Math.ceil(text.length / 4));
  const usage = behaviour.omitUsage
    ? undefined
    : { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
  const id = `chatcmpl-emu${Date.now().toString(36)}`;
  const created = Math.floor(Date.now() / 1000);
  if (!stream) {
    const body = {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, finish_reason: 'stop', logprobs: null }],
      usage,
    };
    return { status: 200, headers: { 'content-type': 'application/json' }, frames: [JSON.stringify(body)] };
  }
  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  // A few words per chunk, as models stream; then the usage chunk (stream_options.include_usage) and [DONE].
  const words = text.split(/(?<= )/);
  const events: Record<string, unknown>[] = [
    chunk({ role: 'assistant', content: '' }, null),
    ...words.map((w) => chunk({ content: w }, null)),
    chunk({}, 'stop'),
  ];
  if (usage) events.push({ id, object: 'chat.completion.chunk', created, model, choices: [], usage });
  return { status: 200, headers: sseHeaders(), frames: sseFrames(events, 'bare') };
}

function isImageDataUrl(url: string): boolean {
  const match = /^data:image\/(png|jpeg|webp|gif);base64,([A-Za-z0-9+/=]+)$/.exec(url);
  if (!match?.[2]) return false;
  const bytes = Buffer.from(match[2], 'base64');
  return bytes.length > 0 && (detectFormat(bytes) !== undefined || bytes.subarray(0, 4).toString('latin1') === 'GIF8');
}

function sendInvalid(res: ServerResponse, requestId: string, param: string | null, message: string): Promise<void> {
  const error = withRequestId({ message, type: 'invalid_request_error', param, code: 'invalid_value' }, requestId);
  return sendAnswer(res, { status: 400, headers: { 'content-type': 'application/json' }, frames: [JSON.stringify({ error })] });
}
