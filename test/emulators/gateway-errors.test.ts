import OpenAI, { type APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { specTest } from '../support/openapi.js';
import { ERROR_PRESETS, startGatewayEmulator, type ErrorPreset, type GatewayEmulator } from './gateway/index.js';
import { useEmulatorWithSdk } from './gateway/sdk-fixture.js';

let gateway: GatewayEmulator;
let client: OpenAI;

useEmulatorWithSdk((g, c) => {
  gateway = g;
  client = c;
});

function expectedClass(status: number): unknown {
  if (status === 400) return OpenAI.BadRequestError;
  if (status === 401) return OpenAI.AuthenticationError;
  if (status === 403) return OpenAI.PermissionDeniedError;
  if (status === 404) return OpenAI.NotFoundError;
  if (status === 429) return OpenAI.RateLimitError;
  if (status >= 500) return OpenAI.InternalServerError;
  return OpenAI.APIError;
}

async function generateError(body: Partial<OpenAI.Images.ImageGenerateParamsNonStreaming> = {}): Promise<APIError> {
  const error: unknown = await client.images.generate({ model: 'gpt-image-1', prompt: 'x', ...body }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as APIError;
}

const PRESETS = Object.keys(ERROR_PRESETS) as ErrorPreset[];

describe('gateway emulator: error presets through the SDK', () => {
  it.each(PRESETS.flatMap((preset) => [[preset, 'en'] as const, [preset, 'zh'] as const]))(
    '%s (%s) surfaces as the SDK error class of its status',
    async (preset, lang) => {
      gateway.enqueue({ type: 'error', preset, lang });
      const error = await generateError();
      const { status, code } = ERROR_PRESETS[preset];
      expect(error.status).toBe(status);
      expect(error).toBeInstanceOf(expectedClass(status));
      const requestId = error.headers?.get('x-oneapi-request-id');
      if (ERROR_PRESETS[preset].proxied) {
        // Cloudflare's own page: its headers, none of the gateway's.
        expect(requestId).toBeNull();
        expect(error.headers?.get('server')).toBe('cloudflare');
        expect(error.headers?.get('cf-ray')).toMatch(/^[0-9a-f]{16}-[A-Z]{3}$/);
        expect(error.headers?.get('content-type')).toBe('text/html; charset=UTF-8');
        expect(error.message).toContain(`<title>api.relay.example | ${status}: `);
        expect(error.message).toContain(`Error code ${status}`);
        expect(error.message).toContain(`Cloudflare Ray ID: <strong class="font-semibold">${error.headers?.get('cf-ray')?.split('-')[0] ?? ''}</strong>`);
        return;
      }
      expect(requestId).toBeTruthy();
      expect(error.headers?.get('cf-ray')).toBeNull();
      if (preset === 'rate_limited_empty') {
        expect(error.error).toBeUndefined();
        expect(error.message).toBe('429 status code (no body)');
      } else {
        expect(error.message).toMatch(new RegExp(`^${status} .+ \\(request id: ${requestId ?? ''}\\)$`));
        if (lang === 'en') expect(error.code ?? undefined).toBe(code);
      }
    },
  );

  it('adds Retry-After and extra headers', async () => {
    gateway.enqueue({ type: 'error', preset: 'rate_limited', retryAfter: '7', headers: { 'x-routing-group': 'default' } });
    const error = await generateError();
    expect(error.headers?.get('retry-after')).toBe('7');
    expect(error.headers?.get('x-routing-group')).toBe('default');
  });

  it('names the parameter of an enqueued unknown_parameter', async () => {
    gateway.enqueue({ type: 'error', preset: 'unknown_parameter', param: 'moderation' });
    const error = await generateError({ moderation: 'low' });
    expect(error).toMatchObject({ param: 'moderation', code: 'unknown_parameter' });
    expect(error.message).toContain("Unknown parameter: 'moderation'.");
  });

  it('writes the Chinese one-api body for an unknown model without a code', async () => {
    gateway.enqueue({ type: 'error', preset: 'unknown_model', lang: 'zh' });
    const error = await generateError();
    expect(error.message).toContain('无可用渠道');
    expect(error.code).toBeUndefined();
  });
});

describe('gateway emulator: automatic errors', () => {
  it('answers 401 for a wrong key and for a missing key', async () => {
    const wrong = new OpenAI({ apiKey: 'sk-wrong', baseURL: gateway.baseUrl, maxRetries: 0 });
    const error = await wrong.images.generate({ model: 'gpt-image-1', prompt: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((error as Error).message).toContain('Invalid token');
    const res = await fetch(`${gateway.baseUrl}/models`);
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('Token not provided');
  });

  it('answers 503 model_not_found for a model outside the catalogue', async () => {
    const error = await generateError({ model: 'gpt-image-9' });
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(error).toMatchObject({ status: 503, code: 'model_not_found' });
    expect(error.message).toContain('gpt-image-9');
  });

  it('answers response_format sent to gpt-image-1 with 400 unknown_parameter exactly as OpenAI', async () => {
    const error = await generateError({ response_format: 'b64_json' });
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.error).toMatchObject({
      message: expect.stringMatching(/^Unknown parameter: 'response_format'\. \(request id: /) as string,
      type: 'invalid_request_error',
      param: 'response_format',
      code: 'unknown_parameter',
    });
  });

  it('rejects configured unsupported parameters with unknown_parameter', async () => {
    await gateway.close();
    gateway = await startGatewayEmulator({ unsupportedParams: ['moderation'] });
    client = new OpenAI({ apiKey: gateway.apiKey, baseURL: gateway.baseUrl, maxRetries: 0 });
    expect(await generateError({ moderation: 'low' })).toMatchObject({ status: 400, param: 'moderation', code: 'unknown_parameter' });
    await expect(client.images.generate({ model: 'gpt-image-1', prompt: 'x' })).resolves.toBeDefined();
  });

  it('rejects custom sizes with bad_size when customSizes is false', async () => {
    await gateway.close();
    gateway = await startGatewayEmulator({ customSizes: false });
    client = new OpenAI({ apiKey: gateway.apiKey, baseURL: gateway.baseUrl, maxRetries: 0 });
    const error = await generateError({ size: '1280x720' as '1024x1024' });
    expect(error).toMatchObject({ status: 400, param: 'size', code: 'invalid_value' });
    expect(error.message).toContain("Invalid value: '1280x720'. Supported values are: '1024x1024', '1024x1536', '1536x1024', and 'auto'.");
  });

  it.each([
    ['1000x1000', 'size'],
    ['3840x512', 'size'],
    ['4096x2048', 'size'],
    ['3840x2176', 'size'],
  ])('rejects the custom size %s naming %s', async (size, param) => {
    expect(await generateError({ model: 'gpt-image-2', size: size as '1024x1024' })).toMatchObject({ status: 400, param, code: 'invalid_value' });
  });

  it('rejects output_compression with png and a transparent jpeg', async () => {
    expect(await generateError({ output_compression: 80 })).toMatchObject({ status: 400, param: 'output_compression' });
    expect(await generateError({ background: 'transparent', output_format: 'jpeg' })).toMatchObject({ status: 400, param: 'background' });
  });

  const spec = specTest('openai', 'records spec violations and answers them with 400');
  it.skipIf(spec.skip)(spec.title, async () => {
    const res = await fetch(`${gateway.baseUrl}/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image-1', prompt: 'x', n: 50 }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { type: string; param: string } }).error).toMatchObject({ type: 'invalid_request_error', param: 'n' });
    expect(gateway.specViolations.length).toBeGreaterThan(0);
    expect(gateway.imageRequests()[0]?.specErrors).toEqual(gateway.specViolations);
  });

  it('answers a body over maxBodyBytes with 413 read_request_body_failed', async () => {
    await gateway.close();
    gateway = await startGatewayEmulator({ maxBodyBytes: 1024 });
    const res = await fetch(`${gateway.baseUrl}/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image-1', prompt: 'x'.repeat(4096) }),
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('read_request_body_failed');
  });

  it("answers an unknown route with one-api's Invalid URL body", async () => {
    const res = await fetch(`${gateway.baseUrl}/nope`, { method: 'POST', headers: { authorization: `Bearer ${gateway.apiKey}` } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { message: 'Invalid URL (POST /v1/nope)', type: 'invalid_request_error', param: '', code: '' } });
  });
});
