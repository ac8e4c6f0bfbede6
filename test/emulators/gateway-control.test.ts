import type OpenAI from 'openai';
import { APIConnectionError } from 'openai';
import { describe, expect, it } from 'vitest';
import type { GatewayEmulator } from './gateway/index.js';
import { useEmulatorWithSdk } from './gateway/sdk-fixture.js';

let gateway: GatewayEmulator;
let client: OpenAI;

useEmulatorWithSdk((g, c) => {
  gateway = g;
  client = c;
});

function generate(): Promise<OpenAI.Images.ImagesResponse> {
  return client.images.generate({ model: 'gpt-image-1', prompt: 'x' });
}

describe('gateway emulator: test control', () => {
  it('holds the next image request until released', async () => {
    const held = gateway.hold();
    let settled = false;
    const pending = generate().finally(() => (settled = true));
    const request = await held.arrived;
    expect(request.json).toMatchObject({ prompt: 'x' });
    // A second request, not held, completes while the first is still held.
    await generate();
    expect(settled).toBe(false);
    held.release();
    await expect(pending).resolves.toMatchObject({ data: [expect.any(Object)] });
  });

  it('resolves waitForRequests once that many image requests arrived', async () => {
    const first = gateway.hold();
    const second = gateway.hold();
    const calls = [generate(), generate()];
    await gateway.waitForRequests(2);
    expect(gateway.imageRequests()).toHaveLength(2);
    first.release();
    second.release();
    await Promise.all(calls);
  });

  it('consumes enqueued behaviours in order, then falls back to success', async () => {
    gateway.enqueue({ type: 'error', preset: 'rate_limited' }, { type: 'error', preset: 'server_error' });
    await expect(generate()).rejects.toMatchObject({ status: 429 });
    await expect(generate()).rejects.toMatchObject({ status: 500 });
    await expect(generate()).resolves.toBeDefined();
  });

  it('applies enqueued behaviours to the models list', async () => {
    gateway.enqueueModels({ type: 'error', preset: 'unavailable_503' });
    await expect(client.models.list()).rejects.toMatchObject({ status: 503 });
    await expect(client.models.list()).resolves.toBeDefined();
  });

  it('close() finishes while a request is held and a socket is open', async () => {
    gateway.hold();
    const pending = generate().catch((e: unknown) => e);
    await gateway.waitForRequests(1);
    await gateway.close();
    expect(await pending).toBeInstanceOf(APIConnectionError);
  });
});

describe('gateway emulator: broken transports', () => {
  it('resets the connection', async () => {
    gateway.enqueue({ type: 'reset' });
    await expect(generate()).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('truncates the body after the headers', async () => {
    gateway.enqueue({ type: 'truncate' });
    const error: unknown = await generate().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
  });

  it('answers a non-JSON body as application/json', async () => {
    gateway.enqueue({ type: 'malformed' });
    const error: unknown = await generate().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyntaxError);
  });

  it('answers an oversized body of exactly the requested length that still parses', async () => {
    gateway.enqueue({ type: 'oversized', bytes: 3_000_000 });
    const res = await fetch(`${gateway.baseUrl}/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image-1', prompt: 'x' }),
    });
    const text = await res.text();
    expect(text.length).toBe(3_000_000);
    expect(res.headers.get('content-length')).toBe('3000000');
    const body = JSON.parse(text) as { data: { b64_json: string }[] };
    expect(
      Buffer.from(body.data[0]?.b64_json ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  it('writes raw chunks and can destroy the socket afterwards', async () => {
    gateway.enqueue({
      type: 'raw',
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      chunks: ['data: {"type":"image_generation.partial_image"', '}\n\n'],
      destroyAfter: true,
    });
    const res = await fetch(`${gateway.baseUrl}/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image-1', prompt: 'x' }),
    });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });
});
