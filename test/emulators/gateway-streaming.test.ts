import type OpenAI from 'openai';
import { APIError, toFile } from 'openai';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { GatewayEmulator } from './gateway/index.js';
import { useEmulatorWithSdk } from './gateway/sdk-fixture.js';

let gateway: GatewayEmulator;
let client: OpenAI;

useEmulatorWithSdk((g, c) => {
  gateway = g;
  client = c;
});

interface StreamEvent {
  type: string;
  b64_json?: string;
  url?: string;
  partial_image_index?: number;
  usage?: unknown;
}

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const REQUIRED = ['type', 'b64_json', 'created_at', 'size', 'quality', 'background', 'output_format'];

describe('gateway emulator: streaming', () => {
  it.each(['event', 'bare'] as const)('streams partial images then completed with %s framing', async (sseFraming) => {
    gateway.enqueue({ type: 'success', sseFraming });
    const stream = await client.images.generate({ model: 'gpt-image-1', prompt: 'x', size: '1536x1024', stream: true, partial_images: 2 });
    const events = await collect(stream);
    expect(events.map((e) => e.type)).toEqual(['image_generation.partial_image', 'image_generation.partial_image', 'image_generation.completed']);
    expect(events.map((e) => e.partial_image_index)).toEqual([0, 1, undefined]);
    for (const event of events) for (const field of REQUIRED) expect(event).toHaveProperty(field);
    const completed = events.at(-1);
    expect(completed?.usage).toMatchObject({ total_tokens: expect.any(Number) as number, input_tokens_details: expect.any(Object) as object });
    const meta = await sharp(Buffer.from(completed?.b64_json ?? '', 'base64')).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 1536, height: 1024 });
  });

  it('frames bare streams as data lines with PING comments and a [DONE] sentinel', async () => {
    gateway.enqueue({ type: 'success', sseFraming: 'bare' });
    const res = await fetch(`${gateway.baseUrl}/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image-1', prompt: 'x', stream: true, partial_images: 1 }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    expect(text).not.toContain('event:');
    expect(text).toContain(': PING\n\n');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('frames OpenAI streams with event lines and no sentinel', async () => {
    const res = await fetch(`${gateway.baseUrl}/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image-1', prompt: 'x', stream: true }),
    });
    const text = await res.text();
    expect(text.startsWith('event: image_generation.completed\ndata: {')).toBe(true);
    expect(text).not.toContain('[DONE]');
  });

  it('streams image_edit events for edits', async () => {
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
    const stream = await client.images.edit({
      model: 'gpt-image-1',
      prompt: 'x',
      image: await toFile(png, 'in.png', { type: 'image/png' }),
      stream: true,
      partial_images: 1,
    });
    const events = await collect(stream);
    expect(events.map((e) => e.type)).toEqual(['image_edit.partial_image', 'image_edit.completed']);
  });

  it('answers plain JSON to stream:true when told to ignore streaming', async () => {
    gateway.enqueue({ type: 'success', ignoreStream: true });
    const res = await fetch(`${gateway.baseUrl}/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image-1', prompt: 'x', stream: true }),
    });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toMatchObject({ data: [{ b64_json: expect.any(String) as string }] });
  });

  it('puts a url instead of b64_json in the completed event for urlItems', async () => {
    gateway.enqueue({ type: 'success', urlItems: true });
    const events = await collect(await client.images.generate({ model: 'gpt-image-1', prompt: 'x', stream: true }));
    expect(events).toHaveLength(1);
    expect(events[0]?.url).toMatch(/\/files\//);
    expect(events[0]?.b64_json).toBeUndefined();
  });

  it('sends the headers of a slow stream at once and spreads the delay over its events', async () => {
    gateway.enqueue({ type: 'success', delayMs: 600_000 });
    const res = await fetch(`${gateway.baseUrl}/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image-1', prompt: 'x', stream: true, partial_images: 3 }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    await res.body?.cancel();
  });

  it.each(['event', 'bare'] as const)('fails a stream with an error event after partial images (%s framing)', async (sseFraming) => {
    gateway.enqueue({ type: 'stream-error', partials: 1, sseFraming, message: 'upstream died' });
    const events: StreamEvent[] = [];
    const error: unknown = await (async () => {
      for await (const event of await client.images.generate({ model: 'gpt-image-1', prompt: 'x', stream: true, partial_images: 2 })) events.push(event);
    })().catch((e: unknown) => e);
    expect(events.map((e) => e.type)).toEqual(['image_generation.partial_image']);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).message).toContain('upstream died');
  });

  it('answers an event stream to a request without stream:true when forceStream is set', async () => {
    gateway.enqueue({ type: 'success', forceStream: true });
    const res = await fetch(`${gateway.baseUrl}/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image-1', prompt: 'x' }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(await res.text()).toContain('"type":"image_generation.completed"');
  });
});
