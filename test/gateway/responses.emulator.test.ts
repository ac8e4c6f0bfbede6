/**
 * Reading what the gateway answers, over real sockets: url items, malformed, truncated and oversized bodies,
 * wrong formats, usage, streams in both SSE framings with partial images, the documented recoveries, and the model
 * catalogue.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from 'undici';
import type { GatewayClient, GatewayClientOptions } from '../../src/gateway/gateway-client.js';
import type { PartialImage } from '../../src/core/images.js';
import { startGatewayEmulator, type GatewayEmulator, type GatewayEmulatorOptions } from '../emulators/gateway/index.js';
import { clientFor, makeImage, failure } from './fixtures.js';
import { finalResult } from '../support/image-stream.js';

let gw: GatewayEmulator;
let agent: Agent;

async function setup(options: GatewayEmulatorOptions = {}, extra: Partial<GatewayClientOptions> = {}): Promise<GatewayClient> {
  gw = await startGatewayEmulator(options);
  const made = clientFor(gw, extra);
  agent = made.agent;
  return made.client;
}

afterEach(async () => {
  expect(gw.specViolations).toEqual([]);
  await agent.close();
  await gw.close();
});

describe('JSON answers', () => {
  it('downloads url items without sending the API key there', async () => {
    const client = await setup();
    gw.enqueue({ type: 'success', urlItems: true });
    const result = await finalResult(client.generate({ prompt: 'p', n: 2, outputFormat: 'jpeg' }));
    expect(result.images.map((i) => [i.format, i.width])).toEqual([
      ['jpeg', 1024],
      ['jpeg', 1024],
    ]);
    const downloads = gw.requests.filter((r) => r.method === 'GET' && !r.path.startsWith('/v1/'));
    expect(downloads).toHaveLength(2);
    expect(downloads.every((r) => r.headers['authorization'] === undefined)).toBe(true);
  });

  it('fails clearly on a broken image link', async () => {
    const client = await setup();
    gw.enqueue({ type: 'success', brokenUrl: true });
    expect(await failure(finalResult(client.generate({ prompt: 'p' })))).toMatchObject({
      category: 'gateway_failure',
      code: 'image_download_failed',
      requestId: expect.any(String) as string,
    });
  });

  it('refuses a JSON answer declared over the size cap before admitting it or allocating for it', async () => {
    const client = await setup({}, { maxResponseBytes: 1_000 });
    gw.enqueue({ type: 'success' });
    const asked: string[] = [];
    const buffer = (bytes: number) => (asked.push('buffer'), Buffer.alloc(bytes));
    const memory = { admit: async (bytes: number | undefined) => (asked.push('admit'), bytes ?? 0) };
    expect(await failure(finalResult(client.generate({ prompt: 'p' }), { buffer, admit: memory.admit }))).toMatchObject({ code: 'response_too_large' });
    expect(asked).toEqual([]);
  });

  it('fails on an image link beyond the size cap', async () => {
    const client = await setup({}, { maxResponseBytes: 1_000 });
    gw.enqueue({ type: 'success', urlItems: true });
    expect(await failure(finalResult(client.generate({ prompt: 'p', size: { width: 256, height: 256 } })))).toMatchObject({ code: 'response_too_large' });
  });

  it.each([
    ['malformed (HTML) body', { type: 'malformed' as const }, 'malformed_response'],
    ['empty data', { type: 'success' as const, emptyData: true }, 'no_images'],
    ['image of another format than requested', { type: 'success' as const, wrongFormat: true }, 'invalid_image'],
    [
      'non-image bytes',
      {
        type: 'raw' as const,
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ created: 1, data: [{ b64_json: Buffer.from('hello').toString('base64') }] }),
      },
      'invalid_image',
    ],
  ])('fails on a %s', async (_name, behaviour, code) => {
    const client = await setup();
    gw.enqueue(behaviour);
    expect(await failure(finalResult(client.generate({ prompt: 'p', outputFormat: 'png' })))).toMatchObject({ category: 'gateway_failure', code });
  });

  it('fails on a truncated body', async () => {
    const client = await setup();
    gw.enqueue({ type: 'truncate' });
    expect((await failure(finalResult(client.generate({ prompt: 'p' })))).category).toBe('gateway_failure');
  });

  it('fails on a body beyond the cap, declared or not', async () => {
    const client = await setup({}, { maxResponseBytes: 200_000 });
    gw.enqueue({ type: 'oversized', bytes: 300_000 });
    gw.enqueue({
      type: 'raw',
      status: 200,
      headers: { 'content-type': 'application/json' },
      chunks: ['{"created":1,"data":[{"b64_json":"', 'A'.repeat(150_000), 'A'.repeat(150_000), '"}]}'],
    });
    expect(await failure(finalResult(client.generate({ prompt: 'p' })))).toMatchObject({ code: 'response_too_large' });
    expect(await failure(finalResult(client.generate({ prompt: 'p' })))).toMatchObject({ code: 'response_too_large' });
  });

  it('decodes images whose base64 is split across writes at odd places and escapes its slashes', async () => {
    const client = await setup();
    const images = [await makeImage('png', 40, 30), await makeImage('webp', 24, 20)];
    const json = JSON.stringify({
      created: 1,
      data: images.map((i) => ({ b64_json: i.toString('base64') })),
      usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
    });
    // `\/` is a valid escape anywhere in JSON; some encoders write every slash that way.
    const body = json.replace(/\//g, '\\/');
    const cuts = [0, 23, 24, 101, Math.floor(body.length / 2) + 1, body.length - 3, body.length];
    gw.enqueue({ type: 'raw', status: 200, headers: { 'content-type': 'application/json' }, chunks: cuts.slice(1).map((end, k) => body.slice(cuts[k], end)) });
    const result = await finalResult(client.generate({ prompt: 'p', n: 2 }));
    expect(result.images.map((i) => [i.format, i.width, i.height])).toEqual([
      ['png', 40, 30],
      ['webp', 24, 20],
    ]);
    expect(result.images.map((i) => i.bytes)).toEqual(images);
    expect(result.usage).toEqual({ inputTokens: 1, outputTokens: 2, totalTokens: 3 });
  });

  it('decodes the images into the Buffer the caller supplies', async () => {
    const client = await setup();
    const supplied: Buffer[] = [];
    const result = await finalResult(client.generate({ prompt: 'p', n: 2 }), { buffer: (bytes) => supplied[supplied.push(Buffer.alloc(bytes)) - 1]! });
    expect(supplied).toHaveLength(1);
    expect(result.images.map((image) => image.bytes.buffer === supplied[0]?.buffer)).toEqual([true, true]);
    expect(result.images.map((i) => [i.format, i.width, i.height])).toEqual([
      ['png', 1024, 1024],
      ['png', 1024, 1024],
    ]);
  });

  it('leaves usage out when the gateway sends none', async () => {
    const client = await setup();
    gw.enqueue({ type: 'success', omitUsage: true });
    expect((await finalResult(client.generate({ prompt: 'p' }))).usage).toBeUndefined();
  });
});

describe('streams', () => {
  it.each(['event', 'bare'] as const)('reports partial images as they arrive (%s framing)', async (sseFraming) => {
    const client = await setup();
    gw.enqueue({ type: 'success', sseFraming });
    const partials: PartialImage[] = [];
    const result = await finalResult(client.generate({ prompt: 'p', size: { width: 1024, height: 1536 } }, { stream: true, partialImages: 2 }), {
      partial: (p) => partials.push(p),
    });
    expect(partials.map((p) => [p.index, p.format])).toEqual([
      [0, 'png'],
      [1, 'png'],
    ]);
    expect(result.images[0]).toMatchObject({ format: 'png', width: 1024, height: 1536 });
    expect(result.usage?.totalTokens).toBeGreaterThan(0);
  });

  it('streams an edit', async () => {
    const client = await setup();
    gw.enqueue({ type: 'success', sseFraming: 'bare' });
    const partials: PartialImage[] = [];
    const result = await finalResult(
      client.edit({ prompt: 'p', images: [{ bytes: await makeImage('png') }], outputFormat: 'webp' }, { stream: true, partialImages: 1 }),
      { partial: (p) => partials.push(p) },
    );
    expect(partials).toHaveLength(1);
    expect(result.images[0]?.format).toBe('webp');
  });

  it('works the same when the gateway ignores stream and answers JSON', async () => {
    const client = await setup();
    gw.enqueue({ type: 'success', ignoreStream: true });
    const partials: PartialImage[] = [];
    const result = await finalResult(client.generate({ prompt: 'p' }, { stream: true, partialImages: 2 }), { partial: (p) => partials.push(p) });
    expect(partials).toEqual([]);
    expect(result.images).toHaveLength(1);
  });

  it('turns an error event into a classified error', async () => {
    const client = await setup();
    const error = {
      type: 'error',
      error: { type: 'image_generation_user_error', code: 'moderation_blocked', message: 'Your request was rejected by the safety system.' },
    };
    gw.enqueue({ type: 'raw', status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: [': PING\n\n', `data: ${JSON.stringify(error)}\n\n`] });
    expect(await failure(finalResult(client.generate({ prompt: 'p' }, { stream: true })))).toMatchObject({
      category: 'content_rejected',
      requestId: expect.any(String) as string,
    });
  });

  it('fails when the stream ends before the image is completed', async () => {
    const client = await setup();
    const png = (await makeImage('png')).toString('base64');
    const partial = { type: 'image_generation.partial_image', b64_json: png, partial_image_index: 0 };
    gw.enqueue({
      type: 'raw',
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      chunks: [`data: ${JSON.stringify(partial)}\n\n`, 'data: [DONE]\n\n'],
    });
    expect(await failure(finalResult(client.generate({ prompt: 'p' }, { stream: true, partialImages: 1 })))).toMatchObject({ code: 'stream_incomplete' });
  });

  it('reads a completed event split across writes and without its final blank line', async () => {
    const client = await setup();
    const png = (await makeImage('png', 48, 32)).toString('base64');
    const done = `data: ${JSON.stringify({ type: 'image_generation.completed', b64_json: png })}`;
    gw.enqueue({ type: 'raw', status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: [': keep-alive\n\n', done.slice(0, 40), done.slice(40)] });
    const result = await finalResult(client.generate({ prompt: 'p' }, { stream: true }));
    expect(result.images[0]).toMatchObject({ width: 48, height: 32 });
  });
});

describe('recoveries the gateway documentation asks for', () => {
  it('retries a rejected custom size once with the nearest standard size and says so', async () => {
    const client = await setup({ customSizes: false });
    const result = await finalResult(client.generate({ prompt: 'p', size: { width: 1920, height: 1088 } }));
    expect(gw.imageRequests().map((r) => r.json?.['size'])).toEqual(['1920x1088', '1536x1024']);
    expect(result.sizeFallback).toEqual({ requested: { width: 1920, height: 1088 }, used: { width: 1536, height: 1024 } });
    expect(result.images[0]).toMatchObject({ width: 1536, height: 1024 });
    const keys = gw.imageRequests().map((r) => r.headers['idempotency-key']);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('does not fall back when a standard size is rejected', async () => {
    const client = await setup();
    gw.enqueue({ type: 'error', preset: 'bad_size' });
    expect(await failure(finalResult(client.generate({ prompt: 'p', size: { width: 1024, height: 1024 } })))).toMatchObject({
      category: 'bad_parameter',
      param: 'size',
    });
    expect(gw.imageRequests()).toHaveLength(1);
  });

  it('drops a parameter the model does not know and says which', async () => {
    const client = await setup({ unsupportedParams: ['moderation'] });
    const result = await finalResult(client.generate({ prompt: 'p', moderation: 'low', quality: 'low' }));
    expect(gw.imageRequests().map((r) => r.json?.['moderation'])).toEqual(['low', undefined]);
    expect(gw.imageRequests()[1]?.json).toMatchObject({ quality: 'low' });
    expect(result.droppedParams).toEqual(['moderation']);
  });

  it('drops an unknown edit field from the multipart body', async () => {
    const client = await setup({ unsupportedParams: ['input_fidelity'] });
    const result = await finalResult(client.edit({ prompt: 'p', images: [{ bytes: await makeImage('png') }], inputFidelity: 'high' }));
    expect(gw.imageRequests()[1]?.form?.order).toEqual(['model', 'prompt', 'image[]']);
    expect(result.droppedParams).toEqual(['input_fidelity']);
  });

  it('drops output_compression along with output_format', async () => {
    const client = await setup({ unsupportedParams: ['output_format'] });
    const result = await finalResult(client.generate({ prompt: 'p', outputFormat: 'jpeg', outputCompression: 50 }));
    expect(gw.imageRequests()[1]?.json).toEqual({ model: 'gpt-image-1', prompt: 'p' });
    expect(result.droppedParams).toEqual(['output_format', 'output_compression']);
  });

  it('drops a parameter named only in the message, as relays that lose code and param send it', async () => {
    const client = await setup();
    gw.enqueue({
      type: 'raw',
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        error: { message: "Unknown parameter: 'quality'. (request id: 2026112100000001)", type: 'new_api_error', param: '', code: null },
      }),
    });
    const result = await finalResult(client.generate({ prompt: 'p', quality: 'high' }));
    expect(gw.imageRequests()[1]?.json).toEqual({ model: 'gpt-image-1', prompt: 'p' });
    expect(result.droppedParams).toEqual(['quality']);
  });

  it('decodes realistic multi-megabyte images', async () => {
    const client = await setup({ imageStyle: 'textured' });
    const result = await finalResult(client.generate({ prompt: 'p', n: 2, size: { width: 1536, height: 1024 } }));
    expect(result.images.map((i) => [i.width, i.height])).toEqual([
      [1536, 1024],
      [1536, 1024],
    ]);
  });

  it('drops only once', async () => {
    const client = await setup({ unsupportedParams: ['moderation', 'quality'] });
    expect(await failure(finalResult(client.generate({ prompt: 'p', moderation: 'low', quality: 'low' })))).toMatchObject({
      category: 'bad_parameter',
      param: expect.any(String) as string,
    });
    expect(gw.imageRequests()).toHaveLength(2);
  });
});

describe('model catalogue', () => {
  it('lists image models first and the default first of all, and caches', async () => {
    let now = 0;
    const client = await setup({ models: ['text-embedding-3-small', 'gpt-image-2', 'gpt-4o-mini', 'gpt-image-1', 'dall-e-3'] }, { clock: { now: () => now } });
    expect(client.cachedModels()).toEqual([{ id: 'gpt-image-1', image: true, default: true }]);
    const models = await client.listModels();
    expect(models.map((m) => m.id)).toEqual(['gpt-image-1', 'dall-e-3', 'gpt-image-2', 'gpt-4o-mini', 'text-embedding-3-small']);
    expect(models.map((m) => m.image)).toEqual([true, true, true, false, false]);
    await client.listModels();
    expect(gw.requests.filter((r) => r.path === '/v1/models')).toHaveLength(1);
    now = 5 * 60_000 + 1;
    await client.listModels();
    expect(gw.requests.filter((r) => r.path === '/v1/models')).toHaveLength(2);
    expect(client.cachedModels()).toEqual(models);
  });

  it('reads the new-api shape, with the shutdown dates the gateway reports', async () => {
    const client = await setup({ modelsShape: 'new-api', models: ['gpt-image-2', 'gpt-image-1'], shutdownDates: { 'gpt-image-1': '2026-12-01' } });
    expect(await client.listModels()).toEqual([
      { id: 'gpt-image-1', image: true, default: true, shutdownDate: '2026-12-01' },
      { id: 'gpt-image-2', image: true },
    ]);
  });

  it.each<[string, GatewayEmulatorOptions]>([
    ['an unknown shape', { modelsShape: 'broken' }],
    ['a failure', {}],
  ])('keeps the default in place on %s', async (_name, options) => {
    const client = await setup(options);
    if (!options.modelsShape) gw.enqueueModels({ type: 'error', preset: 'server_error' });
    expect(await client.listModels()).toEqual([{ id: 'gpt-image-1', image: true, default: true }]);
  });

  it('shares one fetch between concurrent callers', async () => {
    const client = await setup();
    await Promise.all([client.listModels(), client.listModels(), client.listModels()]);
    expect(gw.requests.filter((r) => r.path === '/v1/models')).toHaveLength(1);
  });
});

describe('the memory budget’s gate', () => {
  it('waits for admission after a successful answer and before reading it, and skips it for errors', async () => {
    const client = await setup();
    const order: string[] = [];
    let open!: () => void;
    let reached!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const atGate = new Promise<void>((resolve) => (reached = resolve));
    const memory = {
      admit: async (bytes: number | undefined) => {
        order.push('gate');
        expect(bytes).toBeGreaterThan(1000);
        reached();
        await gate;
        order.push('open');
        return bytes ?? 0;
      },
    };
    const result = finalResult(client.generate({ prompt: 'gated' }), { admit: memory.admit });
    await atGate;
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['gate']);
    open();
    expect((await result).images).toHaveLength(1);
    expect(order).toEqual(['gate', 'open']);

    gw.enqueue({ type: 'error', preset: 'moderation' });
    let called = false;
    await failure(finalResult(client.generate({ prompt: 'refused' }), { admit: async () => ((called = true), 0) }));
    expect(called).toBe(false);
  });

  it('reads no more of an answer than the room it was admitted', async () => {
    const client = await setup();
    gw.enqueue({ type: 'success' });
    const memory = { admit: async () => 1_000 };
    expect(await failure(finalResult(client.generate({ prompt: 'too much for the room' }), { admit: memory.admit }))).toMatchObject({
      code: 'response_too_large',
    });
  });

  it('reads a stream no further than its room either', async () => {
    const client = await setup();
    gw.enqueue({ type: 'success' });
    const memory = { admit: async (bytes: number | undefined) => (expect(bytes).toBeUndefined(), 1_000) };
    expect(await failure(finalResult(client.generate({ prompt: 'streamed' }, { stream: true, partialImages: 1 }), { admit: memory.admit }))).toMatchObject({
      code: 'response_too_large',
    });
  });

  it('opens every link of an answer, then admits what they declare together once, then reads them', async () => {
    const client = await setup();
    gw.enqueue({ type: 'success', urlItems: true });
    const admitted: (number | undefined)[] = [];
    let linksOpenedAtAdmission = -1;
    const memory = {
      admit: async (bytes: number | undefined) => {
        admitted.push(bytes);
        if (admitted.length === 2) linksOpenedAtAdmission = gw.requests.filter((r) => r.method === 'GET' && !r.path.startsWith('/v1/')).length;
        return bytes ?? 0;
      },
    };
    const result = await finalResult(client.generate({ prompt: 'p', n: 2, outputFormat: 'jpeg' }), { admit: memory.admit });
    expect(result.images).toHaveLength(2);
    expect(admitted).toHaveLength(2);
    expect(linksOpenedAtAdmission).toBe(2);
    expect(admitted[1]).toBe(result.images.reduce((total, image) => total + image.bytes.length, 0));
  });

  it('refuses links that need more room than they were admitted, reading none of them', async () => {
    const client = await setup();
    gw.enqueue({ type: 'success', urlItems: true });
    const memory = { admit: async (bytes: number | undefined) => (bytes !== undefined && bytes > 10_000 ? 10_000 : (bytes ?? 0)) };
    expect(await failure(finalResult(client.generate({ prompt: 'p', n: 2 }), { admit: memory.admit }))).toMatchObject({ code: 'response_too_large' });
  });
});
