import { describe, expect, it } from 'vitest';
import { classifyFailure, findParam, type FailureInfo } from '../../src/gateway/classify.js';
import { GatewayConnectionError, GatewayHttpError, GatewayResponseError, GatewayTimeoutError, type GatewayError } from '../../src/gateway/errors.js';
import { findRequestId, stripRequestId } from '../../src/gateway/request-id.js';
import { parseRetryAfter } from '../../src/gateway/retry-after.js';
import { isRetryable, retryDelay } from '../../src/gateway/retry.js';

describe('classifyFailure', () => {
  it.each<[string, FailureInfo, string]>([
    ['401 one-api without code', { status: 401, type: 'one_api_error', message: '无效的令牌' }, 'invalid_key'],
    ['401 OpenAI invalid key', { status: 401, code: 'invalid_api_key', message: 'Incorrect API key provided: sk-…' }, 'invalid_key'],
    ['401 token quota used up', { status: 401, message: '该令牌额度已用尽 TokenStatusExhausted[sk-abc***xyz]' }, 'balance_exhausted'],
    ['401 token quota exhausted (en)', { status: 401, message: 'This token quota is exhausted TokenStatusExhausted[sk-a***z]' }, 'balance_exhausted'],
    ['403 insufficient_user_quota', { status: 403, code: 'insufficient_user_quota', message: 'user quota is not enough' }, 'balance_exhausted'],
    ['403 pre-charge failed (zh, no code)', { status: 403, message: '预扣费额度失败, 用户剩余额度: 0' }, 'balance_exhausted'],
    [
      '429 insufficient_quota',
      { status: 429, code: 'insufficient_quota', type: 'insufficient_quota', message: 'You exceeded your current quota' },
      'balance_exhausted',
    ],
    ['503 no channel (zh)', { status: 503, type: 'one_api_error', message: '当前分组 default 下对于模型 x 无可用渠道' }, 'unknown_model'],
    ['403 token may not use the model', { status: 403, message: '该令牌无权访问模型 gpt-image-9' }, 'unknown_model'],
    ['403 no access (en)', { status: 403, message: 'This token has no access to model gpt-image-9' }, 'unknown_model'],
    ['404 model_not_found', { status: 404, code: 'model_not_found', message: 'The model `x` does not exist' }, 'unknown_model'],
    [
      '400 unknown parameter',
      { status: 400, code: 'unknown_parameter', param: 'response_format', message: "Unknown parameter: 'response_format'." },
      'bad_parameter',
    ],
    ['400 unknown parameter without code', { status: 400, type: 'one_api_error', message: "Unknown parameter: 'moderation'." }, 'bad_parameter'],
    [
      '400 moderation',
      { status: 400, code: 'moderation_blocked', type: 'image_generation_user_error', message: 'rejected by the safety system' },
      'content_rejected',
    ],
    ['400 user error without code', { status: 400, type: 'image_generation_user_error', message: 'Your request was rejected' }, 'content_rejected'],
    [
      '400 user error naming a param',
      { status: 400, type: 'image_generation_user_error', param: 'tools', message: 'Streaming must have non-zero partial images.' },
      'bad_parameter',
    ],
    ['400 sensitive words (zh)', { status: 400, message: '检测到敏感词' }, 'content_rejected'],
    ['429 empty', { status: 429, message: '' }, 'busy'],
    ['429 saturated (zh)', { status: 429, message: '当前分组上游负载已饱和，请稍后再试' }, 'busy'],
    ['429 request limit (zh)', { status: 429, message: '您已达到请求数限制：1分钟内最多请求10次' }, 'busy'],
    ['504', { status: 504, code: 'bad_response_status_code', message: 'bad response status code 504' }, 'timed_out'],
    ['524 text', { status: 524, message: 'error code: 524' }, 'timed_out'],
    ['500 do_request_failed (zh)', { status: 500, code: 'do_request_failed', message: '请求上游地址失败' }, 'timed_out'],
    ['500 do_request_failed refused', { status: 500, code: 'do_request_failed', message: 'dial tcp: connection refused' }, 'gateway_failure'],
    ['500 upstream', { status: 500, code: 'bad_response_status_code', param: '500', message: 'bad response status code 500' }, 'gateway_failure'],
    ['502 HTML', { status: 502, message: '<html>502 Bad Gateway</html>' }, 'gateway_failure'],
    ['501', { status: 501, code: 'api_not_implemented', message: 'API not implemented' }, 'endpoint_missing'],
    ['404 invalid URL', { status: 404, message: 'Invalid URL (POST /v1/images/edits)' }, 'endpoint_missing'],
    ['413', { status: 413, code: 'read_request_body_failed', message: 'http: request body too large' }, 'bad_parameter'],
    ['stream error event', { code: 'image_generation_failed', type: 'image_generation_server_error', message: 'failed' }, 'gateway_failure'],
    [
      '400 Azure content filter',
      {
        status: 400,
        code: 'content_filter',
        param: 'prompt',
        message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
      },
      'content_rejected',
    ],
    ['400 OpenRouter unknown model', { status: 400, code: '400', message: 'vendor/nothing is not a valid model ID' }, 'unknown_model'],
    [
      '403 Azure resource blocked',
      {
        status: 403,
        code: 'Forbidden',
        message: 'Your resource has been temporarily blocked because we detected behavior that may violate our content policy.',
      },
      'invalid_key',
    ],
    [
      '404 Azure DeploymentNotFound',
      { status: 404, code: 'DeploymentNotFound', message: 'The API deployment for this resource does not exist.' },
      'unknown_model',
    ],
    [
      '402 OpenRouter out of credits',
      { status: 402, code: '402', message: 'Insufficient credits. Add more using https://openrouter.ai/credits' },
      'balance_exhausted',
    ],
    [
      '403 OpenRouter moderation',
      { status: 403, code: '403', message: 'openai/gpt-image-2 requires moderation on OpenAI. Your input was flagged.' },
      'content_rejected',
    ],
  ])('%s', (_name, info, category) => {
    expect(classifyFailure(info)).toBe(category);
  });
});

describe('findParam', () => {
  it.each<[FailureInfo, string | undefined]>([
    [{ status: 400, param: 'size', message: '' }, 'size'],
    [{ status: 400, param: '400', message: "Unknown parameter: 'moderation'." }, 'moderation'],
    [{ status: 400, message: "Invalid value: '1254x836'. Supported values are: '1024x1024'" }, 'size'],
    [{ status: 400, code: 'n_not_within_range', message: '' }, 'n'],
    [{ status: 413, message: 'too large' }, 'image'],
    [{ status: 400, message: "'input_fidelity' is not supported for this model" }, 'input_fidelity'],
    [{ status: 400, message: 'nothing to see' }, undefined],
  ])('GIVEN %j THEN the param is %s', (info, param) => {
    expect(findParam(info)).toBe(param);
  });
});

describe('request ids', () => {
  it('prefers headers, then the message suffix', () => {
    expect(findRequestId({ 'x-request-id': 'req_1', 'x-oneapi-request-id': 'one' })).toBe('req_1');
    expect(findRequestId({ 'X-Oneapi-Request-Id': 'one' })).toBe('one');
    expect(findRequestId({ 'x-api-request-id': ['api', 'other'] })).toBe('api');
    expect(findRequestId({}, 'Invalid token (request id: 20250221123456789abcdefgh)')).toBe('20250221123456789abcdefgh');
    expect(findRequestId({}, 'no id here')).toBeUndefined();
  });

  it('strips the suffix for display', () => {
    expect(stripRequestId('无效的令牌 (request id: 2025)')).toBe('无效的令牌');
  });

  it('keeps the suffix id on an error without headers', () => {
    const err = GatewayHttpError.fromResponse(401, JSON.stringify({ error: { message: '无效的令牌 (request id: abc123)', type: 'one_api_error' } }), {});
    expect(err).toMatchObject({ category: 'invalid_key', requestId: 'abc123', status: 401 });
    expect(err.message).not.toContain('request id');
  });

  it('reads a flat error body', () => {
    const err = GatewayHttpError.fromResponse(404, JSON.stringify({ error: 'Not Found', message: 'Cannot POST /v1/nope' }), {});
    expect(err.category).toBe('endpoint_missing');
  });
});

describe('retries', () => {
  const http = (status: number, body = '', headers = {}) => GatewayHttpError.fromResponse(status, body, headers);

  it.each<[string, GatewayError, boolean]>([
    ['429 empty', http(429), true],
    ['429 out of credit', http(429, JSON.stringify({ error: { code: 'insufficient_quota', message: 'quota' } })), false],
    ['502', http(502), true],
    ['503', http(503), true],
    ['503 unknown model', http(503, JSON.stringify({ error: { code: 'model_not_found', message: 'x' } })), false],
    ['500', http(500), false],
    ['504', http(504), false],
    ['524', http(524), false],
    ['400', http(400), false],
    ['refused before sending', new GatewayConnectionError('refused', { beforeSend: true, code: 'ECONNREFUSED' }), true],
    ['reset after sending', new GatewayConnectionError('reset', { beforeSend: false, code: 'UND_ERR_SOCKET' }), false],
    ['header timeout', new GatewayTimeoutError('timeout', {}), false],
    ['malformed body', new GatewayResponseError('bad', { category: 'gateway_failure' }), false],
  ])('GIVEN %s THEN retryable is %s', (_name, err, retry) => {
    expect(isRetryable(err)).toBe(retry);
  });

  it('reads Retry-After in all its spellings', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter({ 'retry-after': '2' }, now)).toBe(2000);
    expect(parseRetryAfter({ 'retry-after-ms': '150', 'retry-after': '9' }, now)).toBe(150);
    expect(parseRetryAfter({ 'Retry-After': new Date(now + 4000).toUTCString() }, now)).toBe(4000);
    expect(parseRetryAfter({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(parseRetryAfter({}, now)).toBeUndefined();
  });

  it('backs off exponentially with up to 25 % jitter, capped at 8 s, and caps Retry-After', () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => retryDelay(n, undefined, 30_000, () => 0))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect(retryDelay(0, undefined, 30_000, () => 0.999)).toBe(375);
    expect(retryDelay(0, 90_000, 30_000, () => 0.5)).toBe(30_000);
  });
});
