/**
 * The OpenRouter dialect of the emulator (README "Dialects"), under `/api/v1`: the image API `POST /images`
 * (openrouter-rules.ts checks it) answering `data[].b64_json` with `media_type` and `usage` with `cost`, or
 * streamed, `image_generation.partial_image` and `image_generation.completed` events; its catalogue `GET
 * /images/models` and `GET /images/models/{id}/endpoints`; `GET /models`, which lists the chat models and the image
 * models only with `?output_modalities=image`; and chat completions. Errors have OpenRouter's shape
 * `{"error":{"code":<status>,"message"}}`. Each completed generation is charged its cost (`charges()`); a failed one
 * ({@link openRouterFailure}: 502) is not.
 *
 * @see https://openrouter.ai/docs/guides/overview/multimodal/image-generation
 * @see https://openrouter.ai/docs/api/reference/errors-and-debugging
 */
import { runBehaviour, sendAnswer, type Answer } from '../behaviours.js';
import { handleChatPost, parseChatBody } from '../chat-endpoint.js';
import { mimeOf } from '../images.js';
import { sseFrames, sseHeaders } from '../sse.js';
import type { EmulatorState } from '../state.js';
import type { RawBehaviour, SuccessBehaviour } from '../types.js';
import { answerModels, type DialectRequest } from './common.js';
import { endpointsBody, imageModelsBody, modelsBody } from './openrouter-models.js';
import { checkOpenRouterRequest, type OpenRouterJob } from './openrouter-rules.js';

/** A failed generation as OpenRouter answers it: 502, the provider's failure, not billed. */
export function openRouterFailure(message = 'Provider returned error'): RawBehaviour {
  const error = { code: 502, message, metadata: { provider_name: 'Google AI Studio', raw: 'upstream generation failed' } };
  return { type: 'raw', status: 502, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error }) };
}

function openRouterError(status: number, message: string): Answer {
  return { status, headers: { 'content-type': 'application/json' }, frames: [JSON.stringify({ error: { code: status, message } })] };
}

/** Handles every request of the OpenRouter dialect. */
export async function handleOpenRouter(state: EmulatorState, x: DialectRequest): Promise<void> {
  const url = new URL(x.record.path, 'http://openrouter.emulator');
  const path = url.pathname;
  const imagePost = x.record.method === 'POST' && path === '/api/v1/images';
  const chatPost = x.record.method === 'POST' && path === '/api/v1/chat/completions';
  const json = imagePost ? jsonObject(x.body) : undefined;
  if (json) x.record.json = json;
  if (chatPost) parseChatBody(x.record, x.body);
  state.record(x.record);
  const startedAt = imagePost ? ((await state.passHold(x.record)) ?? x.arrivedAt) : x.arrivedAt;
  const key = /^Bearer\s+(.+)$/i.exec(x.req.headers.authorization ?? '')?.[1]?.trim();
  if (!key) return sendAnswer(x.res, openRouterError(401, 'No auth credentials found'));
  if (key !== state.settings.apiKey) return sendAnswer(x.res, openRouterError(401, 'User not found.'));
  const models = state.settings.openRouter.models;
  if (imagePost) return answerImages(state, x, startedAt);
  if (chatPost) return handleChatPost(state, { ...x.record, path: '/v1/chat/completions' }, x.res, x.presetCtx, x.arrivedAt);
  if (x.record.method === 'GET' && path === '/api/v1/images/models') return answerModels(state, x, [], imageModelsBody(models));
  const endpoints = /^\/api\/v1\/images\/models\/(.+)\/endpoints$/.exec(path)?.[1];
  const model = models.find((m) => m.id === endpoints);
  if (x.record.method === 'GET' && model) return answerModels(state, x, [], endpointsBody(model));
  if (x.record.method === 'GET' && path === '/api/v1/models') {
    const imageOnly = (url.searchParams.get('output_modalities') ?? '').split(',').includes('image');
    return answerModels(state, x, [], modelsBody(state.settings.models, models, imageOnly));
  }
  return sendAnswer(x.res, openRouterError(404, 'Not Found'));
}

async function answerImages(state: EmulatorState, x: DialectRequest, startedAt: number): Promise<void> {
  const body = x.record.json;
  if (!body) return sendAnswer(x.res, openRouterError(400, 'Invalid JSON body'));
  const job = checkOpenRouterRequest(body, state.settings.openRouter.models);
  if ('status' in job) return sendAnswer(x.res, openRouterError(job.status, job.message));
  const behaviour = state.imageQueue.shift() ?? { type: 'success' };
  await runBehaviour(behaviour, x.res, {
    preset: { ...x.presetCtx, model: job.model.id },
    startedAt,
    defaultDelayMs: state.settings.delayMs,
    sleep: (ms) => state.sleep(ms),
    takeBodyHold: () => state.takeBodyHold(),
    streams: (b) => job.stream && !b.ignoreStream,
    success: (b, jsonOnly) => imagesAnswer(state, job, b, !jsonOnly && job.stream && !b.ignoreStream),
  });
}

/** The answer of a completed generation, charged its cost. */
async function imagesAnswer(state: EmulatorState, job: OpenRouterJob, behaviour: SuccessBehaviour, stream: boolean): Promise<Answer> {
  const cost = Math.round(job.n * (job.model.pricePerImage[job.tier ?? 'default'] ?? job.model.pricePerImage['default'] ?? 0) * 1e6) / 1e6;
  state.openRouterCharges.push(cost);
  const images = await Promise.all(Array.from({ length: job.n }, (_, variant) => state.images.image(specOf(state, job, variant))));
  const media_type = mimeOf(job.format);
  const prompt_tokens = Math.max(1, Math.ceil(job.prompt.length / 4));
  const usage = behaviour.omitUsage ? undefined : { prompt_tokens, completion_tokens: 1290 * job.n, total_tokens: prompt_tokens + 1290 * job.n, cost };
  if (!stream) {
    const data = behaviour.emptyData ? [] : images.map((bytes) => ({ b64_json: bytes.toString('base64'), media_type }));
    return {
      status: 200,
      headers: { 'content-type': 'application/json', ...behaviour.headers },
      frames: [JSON.stringify({ created: Math.floor(Date.now() / 1000), data, usage })],
    };
  }
  const events: Record<string, unknown>[] = [];
  for (const [index, bytes] of images.entries()) {
    const partial = await state.images.partial(specOf(state, job, index), 0);
    events.push({ type: 'image_generation.partial_image', b64_json: partial.toString('base64'), partial_image_index: 0, media_type });
    const last = index === images.length - 1;
    events.push({ type: 'image_generation.completed', b64_json: bytes.toString('base64'), media_type, ...(last && usage ? { usage } : {}) });
  }
  return { status: 200, headers: sseHeaders(), frames: sseFrames(events, behaviour.sseFraming ?? 'event') };
}

function specOf(state: EmulatorState, job: OpenRouterJob, variant: number) {
  return { width: job.width, height: job.height, format: job.format, transparent: false, style: state.settings.imageStyle, variant };
}

function jsonObject(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
