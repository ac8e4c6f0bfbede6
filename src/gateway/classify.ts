/**
 * Classifies a gateway failure into a category the member-facing layer can explain.
 *
 * Order (image-gateway.md §6): statuses that decide alone → `error.code` → `error.type` → message text (English and
 * Chinese, since one-api/new-api localise) → the status as a fallback. Codes come before most statuses because the
 * same status means different things: 403 is a balance or a model restriction, 429 a rate limit or an empty
 * account, 503 saturation or an unknown model.
 *
 * @see ../../../shared/docs/image-gateway.md §2.6, §4, §6
 */
import type { GatewayErrorCategory } from '../core/gateway-error.js';

/** What we know about one failed response (or stream error event). */
export interface FailureInfo {
  status?: number | undefined;
  code?: string | undefined;
  type?: string | undefined;
  param?: string | undefined;
  /** The message without the request-id suffix; empty when the body had none. */
  message: string;
}

const DECISIVE_STATUS: Readonly<Record<number, GatewayErrorCategory>> = {
  // Cloudflare 524 and gateway 504/408: the upstream may still finish and bill, so these are timeouts, never retried.
  408: 'timed_out',
  504: 'timed_out',
  524: 'timed_out',
  // Cloudflare could not reach the origin (web server down, connection timed out, origin unreachable): the gateway
  // failing, whatever its page's words ("Connection timed out" is no generation running out of time).
  521: 'gateway_failure',
  522: 'gateway_failure',
  523: 'gateway_failure',
  // one-api and old new-api answer /images/edits with 501 api_not_implemented.
  501: 'endpoint_missing',
  413: 'bad_parameter',
  // OpenRouter: the account or key is out of credits (https://openrouter.ai/docs/api/reference/errors-and-debugging).
  402: 'balance_exhausted',
};

const CODES: Readonly<Record<string, GatewayErrorCategory>> = {
  invalid_api_key: 'invalid_key',
  insufficient_user_quota: 'balance_exhausted',
  pre_consume_token_quota_failed: 'balance_exhausted',
  insufficient_quota: 'balance_exhausted',
  model_not_found: 'unknown_model',
  moderation_blocked: 'content_rejected',
  content_policy_violation: 'content_rejected',
  sensitive_words_detected: 'content_rejected',
  prompt_blocked: 'content_rejected',
  // Azure OpenAI's content filter: 400 with `innererror.content_filter_result` (docs/gateways.md).
  content_filter: 'content_rejected',
  // Azure: no deployment of that name on the resource (AZURE_DEPLOYMENTS names one that does not exist).
  DeploymentNotFound: 'unknown_model',
  api_not_implemented: 'endpoint_missing',
  rate_limit_exceeded: 'busy',
  token_concurrency_limit_reached: 'busy',
  unknown_parameter: 'bad_parameter',
  unsupported_parameter: 'bad_parameter',
  unsupported_value: 'bad_parameter',
  invalid_value: 'bad_parameter',
  size_not_supported: 'bad_parameter',
  prompt_too_long: 'bad_parameter',
  n_not_within_range: 'bad_parameter',
  prompt_missing: 'bad_parameter',
  invalid_image_request: 'bad_parameter',
  invalid_request: 'bad_parameter',
  read_request_body_failed: 'bad_parameter',
  api_not_supported: 'endpoint_missing',
};

const TYPES: Readonly<Record<string, GatewayErrorCategory>> = {
  insufficient_quota: 'balance_exhausted',
  image_generation_user_error: 'content_rejected',
};

/** Message patterns, checked in this order (balance before key: "令牌…额度已用尽" names the token). */
const MESSAGES: readonly (readonly [GatewayErrorCategory, RegExp])[] = [
  // First, so "Unknown parameter: 'moderation'" is not read as a moderation block.
  ['bad_parameter', /unknown parameter|unsupported parameter|unrecognized request argument|invalid value:/i],
  // Azure blocks a whole resource after repeated content refusals (pollinations/pollinations#8847): not this
  // request's content but the account, which only the operator can clear (before "content policy" below).
  ['invalid_key', /resource has been temporarily blocked/i],
  [
    'balance_exhausted',
    /额度不足|额度已用尽|余额不足|预扣费|quota is not enough|quota is exhausted|pre-consumed quota failed|exceeded your current quota|insufficient (user )?(quota|balance)/i,
  ],
  ['content_rejected', /safety system|content[ _]policy|moderation|敏感词|sensitive words|内容违规|prompt[ _]blocked/i],
  [
    'unknown_model',
    /无可用渠道|no available channel|无权使用模型|无权访问模型|has no access to model|model\b.*\bdoes not exist|模型.*不存在|is not a valid model id/i,
  ],
  ['busy', /负载已饱和|saturated|请求数限制|request limit|rate limit|too many requests|overloaded|slow down/i],
  ['timed_out', /deadline exceeded|timed? ?out|请求上游地址失败|超时/i],
  [
    'invalid_key',
    /无效的令牌|未提供令牌|令牌验证失败|令牌已过期|令牌状态不可用|invalid token|token not provided|token has expired|incorrect api key|invalid api key/i,
  ],
  ['endpoint_missing', /api not implemented|invalid url \(/i],
];

function byStatus(status: number | undefined): GatewayErrorCategory {
  if (status === undefined) return 'gateway_failure';
  if (status === 401 || status === 403) return 'invalid_key';
  if (status === 404 || status === 405) return 'endpoint_missing';
  if (status === 429) return 'busy';
  if (status >= 400 && status < 500) return 'bad_parameter';
  return 'gateway_failure';
}

/** The category of a failure; see the module comment for the order of the checks. */
export function classifyFailure(info: FailureInfo): GatewayErrorCategory {
  const decisive = info.status === undefined ? undefined : DECISIVE_STATUS[info.status];
  if (decisive) return decisive;
  const code = info.code ? CODES[info.code] : undefined;
  // do_request_failed is a transport failure towards the upstream; new-api rewrites its text to 请求上游地址失败.
  if (info.code === 'do_request_failed') return /deadline|timeout|timed out|请求上游地址失败|超时/i.test(info.message) ? 'timed_out' : 'gateway_failure';
  if (code) return code;
  const type = info.type ? TYPES[info.type] : undefined;
  // The same type also marks plain parameter errors ("Streaming must have non-zero partial images", param "tools").
  if (type === 'content_rejected' && info.param) return 'bad_parameter';
  if (type) return type;
  for (const [category, pattern] of MESSAGES) if (pattern.test(info.message)) return category;
  return byStatus(info.status);
}

const PARAM_IN_MESSAGE: readonly (readonly [RegExp, string | undefined])[] = [
  [/(?:unknown|unsupported|unrecognized|invalid) parameter:?\s*['"`]?([\w[\].]+)/i, undefined],
  [/['"`]([\w[\].]+)['"`] is not supported/i, undefined],
  [/Invalid value: '\d+x\d+'|\bsize\b|尺寸/i, 'size'],
  [/\bprompt\b/i, 'prompt'],
  [/\bmask\b/i, 'mask'],
  [/\bimage\b/i, 'image'],
];

const PARAM_BY_CODE: Readonly<Record<string, string>> = {
  prompt_too_long: 'prompt',
  prompt_missing: 'prompt',
  n_not_within_range: 'n',
  size_not_supported: 'size',
  read_request_body_failed: 'image',
};

/**
 * The parameter a bad-parameter failure names: `error.param` when it is a real name (one-api puts the upstream
 * status there, e.g. "400"), else the code, else the message text.
 */
export function findParam(info: FailureInfo): string | undefined {
  if (info.param && !/^\d+$/.test(info.param)) return info.param;
  const byCode = info.code ? PARAM_BY_CODE[info.code] : undefined;
  if (byCode) return byCode;
  if (info.status === 413) return 'image';
  for (const [pattern, fixed] of PARAM_IN_MESSAGE) {
    const match = pattern.exec(info.message);
    if (match) return fixed ?? match[1];
  }
  return undefined;
}

/** True when the failure says the parameter is unknown or unsupported (so dropping it is the documented remedy). */
export function isUnsupportedParameter(info: FailureInfo): boolean {
  if (info.code === 'unknown_parameter' || info.code === 'unsupported_parameter') return true;
  return /unknown parameter|unsupported parameter|unrecognized (request argument|parameter)|not supported|不支持/i.test(info.message);
}
