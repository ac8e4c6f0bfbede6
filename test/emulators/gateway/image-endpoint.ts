/**
 * POST /v1/images/generations and /v1/images/edits: body parsing and spec validation, the gateway's checks, then
 * the next queued behaviour (success by default).
 */
import type { ServerResponse } from 'node:http';
import { type BodyEncoding, loadSpecValidator } from '../../support/openapi.js';
import { presetAnswer, runBehaviour, sendAnswer, sendPreset, type Answer } from './behaviours.js';
import { withRequestId, type PresetContext } from './error-presets.js';
import { formForValidation, parseMultipart } from './multipart.js';
import { specView } from './model-rules.js';
import { imagesMade, imagesResponseFrames, renderImages, streamEvents, type SuccessContext } from './responses.js';
import { sseFrames, sseHeaders } from './sse.js';
import { createTask, submissionAnswer, type EmulatedTask } from './tasks.js';
import type { EmulatorState } from './state.js';
import type { RecordedRequest, SuccessBehaviour } from './types.js';
import { checkImageRequest, type ImageJob, type Rejection } from './validation.js';

/**
 * Parses the body into `record.json` / `record.form` and fills `record.specErrors`: a body that does not parse, or
 * (when the OpenAI spec is there) one the spec does not accept. The stored spec predates the gpt-image-2.5 and 2.6
 * families: their newer values and the `complexity` field pass for those families only (model-rules.ts specView).
 * A dialect names the OpenAI path it stands for (`specPath`) and the model a sent `model` means (`modelOf`, an Azure
 * deployment's).
 */
export async function parseImageBody(record: RecordedRequest, body: Buffer, as: { specPath?: string; modelOf?: (sent: string) => string } = {}): Promise<void> {
  const contentType = record.headers['content-type'] ?? '';
  const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  const specPath = as.specPath ?? (record.path.split('?')[0] ?? '').replace(/^\/v1/, '');
  const modelOf = as.modelOf ?? ((sent: string) => sent);
  const validator = loadSpecValidator('openai');
  const validate = (type: string, value: Record<string, unknown>, encoding: BodyEncoding) => {
    if (!validator) return [];
    const { subject, unknown } = specView(value, modelOf(typeof value['model'] === 'string' ? value['model'] : ''));
    const newer = unknown.map((param) => `openai: ${specPath} /${param} is not in the spec (only newer models take it) {"additionalProperty":"${param}"}`);
    return [...validator.validateRequest('post', specPath, type, subject, encoding), ...newer];
  };
  if (mediaType === 'application/json') {
    const json = parseJsonObject(body);
    if (!json) {
      record.specErrors.push(`openai: ${specPath} body is not a JSON object`);
      return;
    }
    record.json = json;
    record.specErrors.push(...validate(mediaType, json, 'json'));
    return;
  }
  if (mediaType === 'multipart/form-data') {
    try {
      record.form = await parseMultipart(body, contentType);
    } catch {
      record.specErrors.push(`openai: ${specPath} body is not valid multipart/form-data`);
      return;
    }
    record.specErrors.push(...validate(mediaType, formForValidation(record.form), 'form'));
    return;
  }
  record.specErrors.push(...validate(mediaType || '(none)', {}, 'json'));
}

/** Answers an authorised image POST. */
export async function handleImagePost(
  state: EmulatorState,
  record: RecordedRequest,
  res: ServerResponse,
  presetCtx: PresetContext,
  startedAt: number,
): Promise<void> {
  if (record.specErrors.length > 0)
    return sendInvalid(res, presetCtx.requestId, paramOf(record.specErrors[0] ?? ''), `Invalid request: ${record.specErrors.join('; ')}`);
  const endpoint = record.path.startsWith('/v1/images/edits') ? 'edits' : record.path.startsWith('/v1/images/generations') ? 'generations' : undefined;
  if (!endpoint) {
    const message = `Invalid URL (POST ${record.path})`;
    return sendAnswer(res, {
      status: 404,
      headers: { 'content-type': 'application/json' },
      frames: [JSON.stringify({ error: { message, type: 'invalid_request_error', param: '', code: '' } })],
    });
  }
  // The gateway's edit relay reads multipart only (image-gateway.md §4.2.2 "no multipart form data found").
  if (endpoint === 'edits' && !record.form) return sendInvalid(res, presetCtx.requestId, null, 'no multipart form data found');
  const params = record.form ? record.form.fields : (record.json ?? {});
  const checked = await checkImageRequest(endpoint, params, record.form?.files ?? [], state.settings);
  const ctx: PresetContext = {
    ...presetCtx,
    model: typeof params['model'] === 'string' ? params['model'] : '',
    size: typeof params['size'] === 'string' ? params['size'] : '',
  };
  if ('kind' in checked) return sendRejection(res, checked, ctx, state.settings.lang);
  ctx.param = guessParam(params);
  const behaviour = state.imageQueue.shift() ?? { type: 'success' };
  const success: SuccessContext = { images: state.images, files: state, style: state.settings.imageStyle };
  await runBehaviour(behaviour, res, {
    preset: ctx,
    startedAt,
    defaultDelayMs: state.settings.delayMs,
    sleep: (ms) => state.sleep(ms),
    takeBodyHold: () => state.takeBodyHold(),
    proxyTimeoutMs: state.settings.cloudflare?.timeoutMs,
    success: (b, jsonOnly) => {
      if (b.asTask) return submitTask(state, checked, { ...b, asTask: b.asTask });
      // A fan-out relay whose every call failed passes on the upstream's failure.
      if (b.fanOut && imagesMade(checked, b) === 0) return Promise.resolve(presetAnswer('bad_gateway_502', 'en', ctx));
      return successAnswer(checked, b, jsonOnly, success);
    },
    streams: (b) => streams(checked, b),
  });
}

/** Whether the answer is an event stream: never for a task, nor from a fan-out relay (it waits for all its calls). */
function streams(job: ImageJob, behaviour: SuccessBehaviour): boolean {
  return (job.stream || behaviour.forceStream === true) && !behaviour.ignoreStream && !behaviour.asTask && !behaviour.fanOut;
}

/** A task instead of images (tasks.ts): kept for its polls, answered as submitted. */
function submitTask(state: EmulatorState, job: ImageJob, behaviour: SuccessBehaviour & { asTask: EmulatedTask['kind'] }): Promise<Answer> {
  const task = createTask(job, behaviour);
  state.tasks.set(task.id, task);
  return Promise.resolve(submissionAnswer(task));
}

async function successAnswer(job: ImageJob, behaviour: SuccessBehaviour, jsonOnly: boolean, ctx: SuccessContext): Promise<Answer> {
  const rendered = await renderImages(job, behaviour, ctx);
  if (!jsonOnly && streams(job, behaviour)) {
    const events = await streamEvents(job, behaviour, rendered, ctx);
    return { status: 200, headers: sseHeaders(), frames: sseFrames(events, behaviour.sseFraming ?? 'event') };
  }
  const frames = imagesResponseFrames(job, behaviour, rendered, ctx);
  const length = frames.reduce((sum, frame) => sum + frame.length, 0);
  return { status: 200, headers: { 'content-type': 'application/json', 'content-length': String(length) }, frames };
}

function sendRejection(res: ServerResponse, rejection: Rejection, ctx: PresetContext, lang: 'en' | 'zh'): Promise<void> {
  if (rejection.kind === 'invalid') return sendInvalid(res, ctx.requestId, rejection.param, rejection.message, rejection.code);
  const presetCtx = {
    ...ctx,
    ...(rejection.param === undefined ? {} : { param: rejection.param }),
    ...(rejection.size === undefined ? {} : { size: rejection.size }),
    ...(rejection.model === undefined ? {} : { model: rejection.model }),
  };
  return sendPreset(res, rejection.preset, lang, presetCtx);
}

/** 400 invalid_request_error naming the field, with the gateway's request-id suffix. */
function sendInvalid(res: ServerResponse, requestId: string, param: string | null, message: string, code = 'invalid_value'): Promise<void> {
  const error = withRequestId({ message, type: 'invalid_request_error', param, code }, requestId);
  return sendAnswer(res, { status: 400, headers: { 'content-type': 'application/json' }, frames: [JSON.stringify({ error })] });
}

/** The field a validator message is about: `/n must be …` → `n`, a missing property → its name. */
function paramOf(specError: string): string | null {
  const missing = /"missingProperty":"([^"]+)"/.exec(specError)?.[1];
  if (missing) return missing;
  // Validator messages read `openai: <template> <instancePath> <message>`.
  return /^\S+ \S+ \/([A-Za-z_]+)/.exec(specError)?.[1] ?? null;
}

// For an enqueued unknown_parameter: the GPT-image-only parameter most likely to be the one a model refuses.
const OPTIONAL_PARAMS = ['response_format', 'input_fidelity', 'moderation', 'output_compression', 'partial_images', 'background', 'output_format', 'quality'];

function guessParam(params: Record<string, unknown>): string {
  return OPTIONAL_PARAMS.find((p) => params[p] !== undefined) ?? 'response_format';
}

function parseJsonObject(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
