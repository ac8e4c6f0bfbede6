/**
 * Every failure the gateway family sends, classified into a member-facing category, in English and Chinese, with
 * the request id kept from whichever header or message suffix carries it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from 'undici';
import type { GatewayErrorCategory } from '../../src/gateway/errors.js';
import type { GatewayClient } from '../../src/gateway/gateway-client.js';
import { ERROR_PRESETS, startGatewayEmulator, type ErrorPreset, type GatewayEmulator, type RequestIdHeader } from '../emulators/gateway/index.js';
import { clientFor, failure } from './fixtures.js';
import { finalResult } from '../support/image-stream.js';

let gw: GatewayEmulator | undefined;
let agent: Agent | undefined;

async function setup(options: Parameters<typeof startGatewayEmulator>[0] = {}): Promise<{ gw: GatewayEmulator; client: GatewayClient }> {
  gw = await startGatewayEmulator(options);
  // No retries here: this file is about classification; retries.emulator.test.ts covers the matrix.
  const made = clientFor(gw, { maxRetries: 0 });
  agent = made.agent;
  return { gw, client: made.client };
}

afterEach(async () => {
  if (gw) expect(gw.specViolations).toEqual([]);
  await agent?.close();
  await gw?.close();
  gw = undefined;
  agent = undefined;
});

const EXPECTED: Record<ErrorPreset, GatewayErrorCategory> = {
  invalid_key: 'invalid_key',
  balance: 'balance_exhausted',
  openai_quota: 'balance_exhausted',
  unknown_model: 'unknown_model',
  model_not_found_404: 'unknown_model',
  bad_size: 'bad_parameter',
  unknown_parameter: 'bad_parameter',
  prompt_too_long: 'bad_parameter',
  moderation: 'content_rejected',
  content_policy: 'content_rejected',
  sensitive_words: 'content_rejected',
  rate_limited: 'busy',
  rate_limited_empty: 'busy',
  saturated: 'busy',
  gateway_timeout_504: 'timed_out',
  cloudflare_524: 'timed_out',
  // Cloudflare could not reach the relay; its page says "Connection timed out" for 522, which is no generation timing out.
  cloudflare_521: 'gateway_failure',
  cloudflare_522: 'gateway_failure',
  cloudflare_523: 'gateway_failure',
  origin_521: 'gateway_failure',
  origin_522: 'gateway_failure',
  origin_523: 'gateway_failure',
  request_timeout_408: 'timed_out',
  do_request_failed: 'timed_out',
  bad_gateway_502: 'gateway_failure',
  // "The server is overloaded or not ready yet.": OpenAI's 503 means busy, not broken.
  unavailable_503: 'busy',
  server_error: 'gateway_failure',
  not_implemented: 'endpoint_missing',
  body_too_large: 'bad_parameter',
};

const cases = Object.keys(ERROR_PRESETS).flatMap((preset) => {
  const def = ERROR_PRESETS[preset as ErrorPreset];
  return (def.zh ? ['en', 'zh'] : ['en']).map((lang) => [preset as ErrorPreset, lang as 'en' | 'zh'] as const);
});

describe('error classification', () => {
  it('covers every preset the emulator offers', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(Object.keys(ERROR_PRESETS).sort());
  });

  it.each(cases)('classifies preset %s (%s) and keeps its request id', async (preset, lang) => {
    const { gw, client } = await setup();
    gw.enqueue({ type: 'error', preset, lang });
    const err = await failure(finalResult(client.generate({ prompt: 'a red fox', size: { width: 1536, height: 1024 } })));
    expect(err.category).toBe(EXPECTED[preset]);
    expect(err.status).toBe(ERROR_PRESETS[preset].status);
    expect(err.requestId).toBeTruthy();
    expect(gw.imageRequests()).toHaveLength(1);
  });

  it('names the parameter of a bad-parameter error', async () => {
    const { gw, client } = await setup();
    gw.enqueue({ type: 'error', preset: 'prompt_too_long' });
    expect(await failure(finalResult(client.generate({ prompt: 'p' })))).toMatchObject({ category: 'bad_parameter', param: 'prompt' });
  });

  it('classifies the gateway refusing the key on its own', async () => {
    const { gw } = await setup({ lang: 'zh' });
    const { client } = clientFor(gw, { apiKey: 'sk-wrong', maxRetries: 0 });
    expect(await failure(finalResult(client.generate({ prompt: 'p' })))).toMatchObject({ category: 'invalid_key', status: 401 });
  });

  it('classifies a model outside the catalogue', async () => {
    const { client } = await setup({ lang: 'zh' });
    expect(await failure(finalResult(client.generate({ prompt: 'p', model: 'gpt-image-9' })))).toMatchObject({ category: 'unknown_model', status: 503 });
  });

  it.each<RequestIdHeader>(['x-request-id', 'X-Oneapi-Request-Id', 'x-api-request-id'])('reads the request id from %s', async (header) => {
    const { gw, client } = await setup({ requestIdHeader: header });
    const ok = await finalResult(client.generate({ prompt: 'p' }));
    expect(ok.requestId).toMatch(/\w{6,}/);
    gw.enqueue({ type: 'error', preset: 'moderation' });
    const err = await failure(finalResult(client.generate({ prompt: 'p' })));
    expect(err.requestId).toMatch(/\w{6,}/);
    expect(err.requestId).not.toBe(ok.requestId);
  });

  it('classifies a raw one-api 403 for a model the key may not use', async () => {
    const { gw, client } = await setup();
    gw.enqueue({
      type: 'raw',
      status: 403,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { message: '该令牌无权使用模型：gpt-image-1 (request id: 2025022112345678abcd)', type: 'one_api_error' } }),
    });
    expect(await failure(finalResult(client.generate({ prompt: 'p' })))).toMatchObject({
      category: 'unknown_model',
      status: 403,
      requestId: expect.any(String) as string,
    });
  });

  it.each([521, 522, 523, 524] as const)("reads Cloudflare's %s page: its title as the message, its Ray id, its proxy", async (status) => {
    const { gw, client } = await setup();
    gw.enqueue({ type: 'error', preset: `cloudflare_${status}` });
    const err = await failure(finalResult(client.generate({ prompt: 'p' })));
    expect(err).toMatchObject({ status, proxy: 'cloudflare', requestId: expect.stringMatching(/^[0-9a-f]{16}-FRA$/) as string });
    expect(err.message).toMatch(new RegExp(`^gateway answered ${status}: api\\.relay\\.example \\| ${status}: [A-Z][a-z ]+$`));
  });

  it("knows a plain origin's 522 for what it is: no proxy, the gateway's request id", async () => {
    const { gw, client } = await setup();
    gw.enqueue({ type: 'error', preset: 'origin_522' });
    const err = await failure(finalResult(client.generate({ prompt: 'p' })));
    expect(err).toMatchObject({ status: 522, category: 'gateway_failure', proxy: undefined, requestId: expect.stringMatching(/^\d{14}/) as string });
  });

  it('classifies an HTML page from a proxy by its status', async () => {
    const { gw, client } = await setup();
    gw.enqueue({ type: 'raw', status: 500, headers: { 'content-type': 'text/html' }, body: '<html><body>oops</body></html>' });
    expect(await failure(finalResult(client.generate({ prompt: 'p' })))).toMatchObject({ category: 'gateway_failure', status: 500 });
  });

  it('treats a 200 carrying an error object as that error', async () => {
    const { gw, client } = await setup();
    gw.enqueue({
      type: 'raw',
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { message: '用户额度不足, 剩余额度: 0', type: 'new_api_error' } }),
    });
    expect(await failure(finalResult(client.generate({ prompt: 'p' })))).toMatchObject({ category: 'balance_exhausted' });
  });

  it('reports an edits endpoint the gateway does not offer', async () => {
    const { gw, client } = await setup();
    gw.enqueue({ type: 'error', preset: 'not_implemented', lang: 'zh' });
    const { makeImage } = await import('./fixtures.js');
    expect(await failure(finalResult(client.edit({ prompt: 'p', images: [{ bytes: await makeImage('png') }] })))).toMatchObject({
      category: 'endpoint_missing',
      status: 501,
    });
  });
});
