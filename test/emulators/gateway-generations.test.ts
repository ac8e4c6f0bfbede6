import OpenAI from 'openai';
import sharp, { type Metadata } from 'sharp';
import { describe, expect, it } from 'vitest';
import { startGatewayEmulator, type GatewayEmulator } from './gateway/index.js';
import { useEmulatorWithSdk } from './gateway/sdk-fixture.js';

let gateway: GatewayEmulator;
let client: OpenAI;

useEmulatorWithSdk((g, c) => {
  gateway = g;
  client = c;
});

async function decode(b64: string | undefined): Promise<Metadata> {
  expect(b64).toBeTypeOf('string');
  return sharp(Buffer.from(b64 ?? '', 'base64')).metadata();
}

describe('gateway emulator: models', () => {
  it('lists the catalogue in the OpenAI shape through the SDK', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(['gpt-image-1', 'gpt-image-1-mini', 'gpt-image-2', 'dall-e-3', 'gpt-4o-mini', 'text-embedding-3-small']);
  });

  it('answers the new-api shape without "object":"list"', async () => {
    await gateway.close();
    gateway = await startGatewayEmulator({ modelsShape: 'new-api', models: ['gpt-image-1'] });
    const res = await fetch(`${gateway.baseUrl}/models`, { headers: { authorization: `Bearer ${gateway.apiKey}` } });
    const body: unknown = await res.json();
    expect(body).toMatchObject({ success: true, data: [{ id: 'gpt-image-1', object: 'model' }] });
    expect(body).not.toHaveProperty('object');
  });

  it('answers a body that is not a list for the broken shape', async () => {
    await gateway.close();
    gateway = await startGatewayEmulator({ modelsShape: 'broken' });
    const res = await fetch(`${gateway.baseUrl}/models`, { headers: { authorization: `Bearer ${gateway.apiKey}` } });
    const body = (await res.json()) as { data: unknown };
    expect(Array.isArray(body.data)).toBe(false);
  });
});

describe('gateway emulator: generations', () => {
  it('returns a b64 PNG of the requested size with usage and echo fields', async () => {
    const result = await client.images.generate({ model: 'gpt-image-1', prompt: 'a red fox', size: '1536x1024', quality: 'low' });
    expect(result.data).toHaveLength(1);
    const meta = await decode(result.data?.[0]?.b64_json);
    expect(meta).toMatchObject({ format: 'png', width: 1536, height: 1024 });
    expect(result).toMatchObject({ output_format: 'png', size: '1536x1024', quality: 'low', background: 'opaque' });
    expect(result.usage).toMatchObject({
      input_tokens: expect.any(Number) as number,
      output_tokens: expect.any(Number) as number,
      total_tokens: expect.any(Number) as number,
    });
    expect(result.usage?.input_tokens_details).toBeDefined();
    expect(result.created).toBeTypeOf('number');
  });

  it('resolves size auto to 1024x1024 and returns n images', async () => {
    const result = await client.images.generate({ model: 'gpt-image-1', prompt: 'tiles', n: 3 });
    expect(result.data).toHaveLength(3);
    for (const image of result.data ?? []) expect(await decode(image.b64_json)).toMatchObject({ width: 1024, height: 1024 });
  });

  it.each([
    ['jpeg', 'jpeg'],
    ['webp', 'webp'],
  ] as const)('encodes output_format %s', async (format, sharpFormat) => {
    const result = await client.images.generate({ model: 'gpt-image-1', prompt: 'x', size: '1024x1536', output_format: format, output_compression: 50 });
    expect(await decode(result.data?.[0]?.b64_json)).toMatchObject({ format: sharpFormat, width: 1024, height: 1536 });
  });

  it('gives a transparent background an alpha channel', async () => {
    const result = await client.images.generate({ model: 'gpt-image-1', prompt: 'sticker', background: 'transparent' });
    expect(await decode(result.data?.[0]?.b64_json)).toMatchObject({ hasAlpha: true });
    expect(result.background).toBe('transparent');
  });

  it('accepts a custom WIDTHxHEIGHT size by default', async () => {
    const result = await client.images.generate({ model: 'gpt-image-2', prompt: 'wide', size: '1280x720' });
    expect(await decode(result.data?.[0]?.b64_json)).toMatchObject({ width: 1280, height: 720 });
  });

  it('gives textured images a realistic weight and serves repeats from its cache', async () => {
    await gateway.close();
    gateway = await startGatewayEmulator({ imageStyle: 'textured' });
    client = new OpenAI({ apiKey: gateway.apiKey, baseURL: gateway.baseUrl, maxRetries: 0 });
    const first = await client.images.generate({ model: 'gpt-image-1', prompt: 'photo', size: '1536x1024' });
    const second = await client.images.generate({ model: 'gpt-image-1', prompt: 'photo', size: '1536x1024' });
    const bytes = Buffer.from(first.data?.[0]?.b64_json ?? '', 'base64');
    expect(bytes.length).toBeGreaterThan(2_000_000);
    expect(bytes.length).toBeLessThan(4_500_000);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'png', width: 1536, height: 1024 });
    expect(second.data?.[0]?.b64_json).toBe(first.data?.[0]?.b64_json);
  });

  it('records the JSON body and headers of the request', async () => {
    await client.images.generate({ model: 'gpt-image-1', prompt: 'recorded', moderation: 'low' });
    const [request] = gateway.imageRequests();
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/images/generations',
      json: { model: 'gpt-image-1', prompt: 'recorded', moderation: 'low' },
      specErrors: [],
    });
    expect(request?.headers['authorization']).toBe(`Bearer ${gateway.apiKey}`);
    expect(gateway.specViolations).toEqual([]);
  });

  it('serves url items from its own /files/ route and records the download', async () => {
    gateway.enqueue({ type: 'success', urlItems: true });
    const result = await client.images.generate({ model: 'gpt-image-1', prompt: 'link' });
    const url = result.data?.[0]?.url ?? '';
    expect(url.startsWith(new URL(gateway.baseUrl).origin + '/files/')).toBe(true);
    const download = await fetch(url);
    expect(download.status).toBe(200);
    expect(await sharp(Buffer.from(await download.arrayBuffer())).metadata()).toMatchObject({ format: 'png', width: 1024 });
    expect(gateway.requests.at(-1)).toMatchObject({ method: 'GET', path: new URL(url).pathname });
  });

  it('serves url items that 404 when brokenUrl is set', async () => {
    gateway.enqueue({ type: 'success', brokenUrl: true });
    const result = await client.images.generate({ model: 'gpt-image-1', prompt: 'link' });
    const download = await fetch(result.data?.[0]?.url ?? '');
    expect(download.status).toBe(404);
  });

  it('answers url items to dall-e-3 when response_format is url, with revised_prompt', async () => {
    const result = await client.images.generate({ model: 'dall-e-3', prompt: 'otter', response_format: 'url' });
    expect(result.data?.[0]).toMatchObject({ url: expect.any(String) as string, revised_prompt: expect.any(String) as string });
  });

  it('applies emptyData, omitUsage, wrongFormat and extra headers', async () => {
    gateway.enqueue({ type: 'success', emptyData: true }, { type: 'success', omitUsage: true, wrongFormat: true, headers: { 'x-extra': 'yes' } });
    const empty = await client.images.generate({ model: 'gpt-image-1', prompt: 'x' });
    expect(empty.data).toEqual([]);
    const { data, response } = await client.images.generate({ model: 'gpt-image-1', prompt: 'x' }).withResponse();
    expect(data.usage).toBeUndefined();
    expect(await decode(data.data?.[0]?.b64_json)).toMatchObject({ format: 'jpeg' });
    expect(response.headers.get('x-extra')).toBe('yes');
  });

  it('puts a request id on every response under the configured header', async () => {
    const { response } = await client.images.generate({ model: 'gpt-image-1', prompt: 'x' }).withResponse();
    expect(response.headers.get('x-oneapi-request-id')).toMatch(/^\d{23}[A-Za-z0-9]{8}$/);
    await gateway.close();
    gateway = await startGatewayEmulator({ requestIdHeader: 'x-request-id' });
    client = new OpenAI({ apiKey: gateway.apiKey, baseURL: gateway.baseUrl, maxRetries: 0 });
    const second = await client.images.generate({ model: 'gpt-image-1', prompt: 'x' }).withResponse();
    expect(second.request_id).toMatch(/^req_[0-9a-f]{32}$/);
  });
});
