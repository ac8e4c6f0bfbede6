/**
 * Error statuses and bodies as one-api, new-api and OpenAI send them.
 * @see /work/shared/docs/image-gateway.md §2.6 (OpenAI bodies), §4.1 (one-api), §4.2 (new-api), §6 (classification)
 */
import { CLOUDFLARE_PRESETS } from './cloudflare.js';
import type { ErrorPreset } from './types.js';

/** The `error` object of an error body, before the gateway appends ` (request id: …)` to its message. */
export interface GatewayErrorObject {
  message: string;
  type: string;
  param?: string | null;
  code?: string | null;
  [extra: string]: unknown;
}

/** What a preset needs from the request it answers. */
export interface PresetContext {
  requestId: string;
  model: string;
  /** The offending parameter (`unknown_parameter`) or the requested size (`bad_size`). */
  param: string;
  size: string;
}

/** One preset: its status, and its body per language (`null` = empty body; `zh` falls back to `en`). */
export interface ErrorPresetDefinition {
  readonly status: number;
  /** The `error.code` of the English body (`undefined` when the body has none), for assertions. */
  readonly code: string | undefined;
  readonly en: (ctx: PresetContext) => GatewayErrorObject | null;
  readonly zh?: ((ctx: PresetContext) => GatewayErrorObject | null) | undefined;
  /** Served as-is instead of JSON (proxies answering with HTML or text). */
  readonly rawBody?: { contentType: string; text: string | ((ctx: PresetContext) => string) } | undefined;
  /** Headers the answer carries besides its content type. */
  readonly headers?: ((ctx: PresetContext) => Record<string, string>) | undefined;
  /** Written by a proxy in front of the gateway (Cloudflare), so without the gateway's own headers (its request id). */
  readonly proxied?: true | undefined;
}

const SUPPORTED_SIZES = "Supported values are: '1024x1024', '1024x1536', '1536x1024', and 'auto'.";

function upstream(status: number, message: string): GatewayErrorObject {
  // one-api/new-api RelayErrorHandler for an upstream body without error.message (§4.1 "Upstream errors").
  return { message, type: 'upstream_error', param: String(status), code: 'bad_response_status_code' };
}

/** Every preset, keyed by name. Iterate it in tests: `Object.keys(ERROR_PRESETS)`. */
export const ERROR_PRESETS: Readonly<Record<ErrorPreset, ErrorPresetDefinition>> = {
  invalid_key: {
    status: 401,
    code: '',
    en: () => ({ message: 'Invalid token', type: 'new_api_error', code: '' }),
    // one-api abortWithMessage: no code and no param (§4.1 Auth).
    zh: () => ({ message: '无效的令牌', type: 'one_api_error' }),
  },
  balance: {
    status: 403,
    code: 'insufficient_user_quota',
    en: () => ({
      message: 'image pre-consumed quota failed, user quota: ＄0.001, need quota: ＄0.04',
      type: 'new_api_error',
      param: '',
      code: 'insufficient_user_quota',
    }),
    zh: () => ({ message: '预扣费额度失败, 用户剩余额度: ＄0.001, 需要预扣费额度: ＄0.04', type: 'new_api_error', param: '', code: 'insufficient_user_quota' }),
  },
  openai_quota: {
    status: 429,
    code: 'insufficient_quota',
    en: () => ({
      message: 'You exceeded your current quota, please check your plan and billing details.',
      type: 'insufficient_quota',
      param: null,
      code: 'insufficient_quota',
    }),
  },
  unknown_model: {
    status: 503,
    code: 'model_not_found',
    en: (c) => ({
      message: `No available channel for model ${c.model} under group default (distributor)`,
      type: 'new_api_error',
      param: '',
      code: 'model_not_found',
    }),
    zh: (c) => ({ message: `当前分组 default 下对于模型 ${c.model} 无可用渠道`, type: 'one_api_error' }),
  },
  model_not_found_404: {
    status: 404,
    code: 'model_not_found',
    en: (c) => ({
      message: `The model \`${c.model}\` does not exist or you do not have access to it.`,
      type: 'invalid_request_error',
      param: null,
      code: 'model_not_found',
    }),
  },
  bad_size: {
    status: 400,
    code: 'invalid_value',
    en: (c) => ({ message: `Invalid value: '${c.size}'. ${SUPPORTED_SIZES}`, type: 'invalid_request_error', param: 'size', code: 'invalid_value' }),
  },
  unknown_parameter: {
    status: 400,
    code: 'unknown_parameter',
    en: (c) => ({ message: `Unknown parameter: '${c.param}'.`, type: 'invalid_request_error', param: c.param, code: 'unknown_parameter' }),
  },
  prompt_too_long: {
    status: 400,
    code: 'prompt_too_long',
    en: () => ({ message: 'prompt is too long', type: 'one_api_error', param: '', code: 'prompt_too_long' }),
  },
  moderation: {
    status: 400,
    code: 'moderation_blocked',
    en: (c) => ({
      message: `Your request was rejected by the safety system. If you believe this is an error, contact us at help.openai.com and include the request ID ${c.requestId}. safety_violations=[sexual].`,
      type: 'image_generation_user_error',
      param: null,
      code: 'moderation_blocked',
      moderation_details: { moderation_stage: 'output', categories: ['sexual'] },
    }),
  },
  content_policy: {
    status: 400,
    code: 'content_policy_violation',
    en: () => ({
      message: 'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.',
      type: 'invalid_request_error',
      param: null,
      code: 'content_policy_violation',
    }),
  },
  sensitive_words: {
    status: 400,
    code: 'sensitive_words_detected',
    en: () => ({ message: 'sensitive words detected: nsfw', type: 'new_api_error', param: '', code: 'sensitive_words_detected' }),
    zh: () => ({ message: '检测到敏感词: nsfw', type: 'new_api_error', param: '', code: 'sensitive_words_detected' }),
  },
  rate_limited: {
    status: 429,
    code: '',
    en: () => ({ message: 'You have reached the request limit: maximum 10 requests in 1 minutes', type: 'new_api_error', code: '' }),
    zh: () => ({ message: '您已达到请求数限制：1分钟内最多请求10次', type: 'new_api_error', code: '' }),
  },
  rate_limited_empty: { status: 429, code: undefined, en: () => null },
  saturated: {
    status: 429,
    code: 'rate_limit_exceeded',
    en: () => ({ message: 'Current group upstream load is saturated, please try again later', type: 'upstream_error', param: '', code: 'rate_limit_exceeded' }),
    zh: () => ({ message: '当前分组上游负载已饱和，请稍后再试', type: 'upstream_error', param: '', code: 'rate_limit_exceeded' }),
  },
  gateway_timeout_504: { status: 504, code: 'bad_response_status_code', en: () => upstream(504, 'bad response status code 504') },
  request_timeout_408: { status: 408, code: 'bad_response_status_code', en: () => upstream(408, 'bad response status code 408') },
  do_request_failed: {
    status: 500,
    code: 'do_request_failed',
    en: () => ({
      message: 'Post "https://api.openai.com/v1/images/generations": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
      type: 'one_api_error',
      param: '',
      code: 'do_request_failed',
    }),
    zh: () => ({ message: '请求上游地址失败', type: 'new_api_error', param: '', code: 'do_request_failed' }),
  },
  bad_gateway_502: { status: 502, code: 'bad_response_status_code', en: () => upstream(502, 'bad response status code 502') },
  unavailable_503: {
    status: 503,
    code: undefined,
    en: () => ({ message: 'The server is overloaded or not ready yet.', type: 'server_error', param: null, code: null }),
  },
  server_error: { status: 500, code: 'bad_response_status_code', en: () => upstream(500, 'bad response status code 500') },
  not_implemented: {
    status: 501,
    code: 'api_not_implemented',
    en: () => ({ message: 'API not implemented', type: 'new_api_error', param: '', code: 'api_not_implemented' }),
    zh: () => ({ message: 'API not implemented', type: 'one_api_error', param: '', code: 'api_not_implemented' }),
  },
  body_too_large: {
    status: 413,
    code: 'read_request_body_failed',
    en: () => ({ message: 'http: request body too large', type: 'new_api_error', param: '', code: 'read_request_body_failed' }),
  },
  ...CLOUDFLARE_PRESETS,
};

/** Appends the gateway's ` (request id: …)` suffix, as one-api/new-api do for every error they write. */
export function withRequestId(error: GatewayErrorObject, requestId: string): GatewayErrorObject {
  return { ...error, message: `${error.message} (request id: ${requestId})` };
}

/** A preset as sent: status, content type, body text (empty: an empty body) and its own headers. */
export interface RenderedPreset {
  status: number;
  contentType: string;
  text: string;
  headers: Record<string, string>;
  /** Written by a proxy in front of the gateway: the gateway's own headers are not on it. */
  proxied: boolean;
}

/** The status, content type, body text and headers of a preset. An empty text means an empty body. */
export function renderPreset(preset: ErrorPreset, lang: 'en' | 'zh', ctx: PresetContext): RenderedPreset {
  const def = ERROR_PRESETS[preset];
  const common = { status: def.status, headers: def.headers?.(ctx) ?? {}, proxied: def.proxied === true };
  if (def.rawBody) {
    const { contentType, text } = def.rawBody;
    return { ...common, contentType, text: typeof text === 'string' ? text : text(ctx) };
  }
  const error = (lang === 'zh' && def.zh ? def.zh : def.en)(ctx);
  if (!error) return { ...common, contentType: 'text/plain; charset=utf-8', text: '' };
  return { ...common, contentType: 'application/json', text: JSON.stringify({ error: withRequestId(error, ctx.requestId) }) };
}
