/**
 * Fewer images than `n`: an upstream that makes fewer without a word (`imageCount`), and a relay that fans a request
 * out into n calls of n=1 and aggregates them (`fanOut`), some of which may fail.
 */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useEmulatorWithSdk } from './gateway/sdk-fixture.js';
import type { GatewayEmulator } from './gateway/index.js';

let gateway: GatewayEmulator;
let client: OpenAI;

useEmulatorWithSdk((g, c) => {
  gateway = g;
  client = c;
});

const generate = (n: number, extra: Partial<OpenAI.Images.ImageGenerateParamsNonStreaming> = {}) =>
  client.images.generate({ model: 'gpt-image-1', prompt: 'four lighthouses', n, quality: 'low', ...extra });

describe('an upstream that makes fewer images than asked', () => {
  it('answers 1 image for n=2, without a word, billing the one it made', async () => {
    const full = await generate(2);
    gateway.enqueue({ type: 'success', imageCount: 1 });
    const short = await generate(2);
    expect(short.data).toHaveLength(1);
    expect(JSON.stringify(short)).not.toMatch(/error|warning/i);
    expect(short.usage?.output_tokens).toBe((full.usage?.output_tokens ?? 0) / 2);
    expect(short.usage?.input_tokens).toBe(full.usage?.input_tokens);
  });

  it('streams only the images it made', async () => {
    gateway.enqueue({ type: 'success', imageCount: 1 });
    const stream = await client.images.generate({ model: 'gpt-image-1', prompt: 'p', n: 3, stream: true, partial_images: 1 });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual(['image_generation.partial_image', 'image_generation.completed']);
  });

  it('never answers more than asked', async () => {
    gateway.enqueue({ type: 'success', imageCount: 5 });
    expect((await generate(2)).data).toHaveLength(2);
  });
});

describe('a relay that fans out n calls of n=1', () => {
  it('aggregates them into one plain answer whose usage counts the prompt once per call', async () => {
    const single = await generate(1);
    gateway.enqueue({ type: 'success', fanOut: {} });
    const fanned = await generate(3);
    expect(fanned.data).toHaveLength(3);
    expect(fanned.usage?.input_tokens).toBe((single.usage?.input_tokens ?? 0) * 3);
    expect(fanned.usage?.output_tokens).toBe((single.usage?.output_tokens ?? 0) * 3);
  });

  it('leaves out the calls that failed, saying nothing, and bills only the others', async () => {
    const single = await generate(1);
    gateway.enqueue({ type: 'success', fanOut: { failed: 2 } });
    const fanned = await generate(3);
    expect(fanned.data).toHaveLength(1);
    expect(fanned.usage?.total_tokens).toBe(single.usage?.total_tokens);
  });

  it('answers plain JSON to a stream request: it waits for every call', async () => {
    gateway.enqueue({ type: 'success', fanOut: {} });
    const res = await fetch(`${gateway.baseUrl}/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image-1', prompt: 'p', n: 2, stream: true }),
    });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(2);
  });

  it("passes on the upstream's 502 when every call failed", async () => {
    gateway.enqueue({ type: 'success', fanOut: { failed: 2 } });
    await expect(generate(2)).rejects.toMatchObject({ status: 502, code: 'bad_response_status_code' });
  });
});
