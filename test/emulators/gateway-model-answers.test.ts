/**
 * What the models answer: GIF and SVG from the 2.6 family, url items by default from the dall-e models, url items
 * with file_id (fileIds), and dall-e-2's edit rules with OpenAI's own texts.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALISTIC_MODELS, startGatewayEmulator, type GatewayEmulator } from './gateway/index.js';

let gateway: GatewayEmulator;

beforeAll(async () => {
  gateway = await startGatewayEmulator({ models: REALISTIC_MODELS });
});

afterAll(async () => {
  await gateway.close();
});

interface Item {
  b64_json?: string;
  url?: string;
  file_id?: string;
  revised_prompt?: string;
}

async function post(endpoint: 'generations' | 'edits', body: Record<string, unknown> | FormData): Promise<{ status: number; json: Record<string, unknown> }> {
  const json = !(body instanceof FormData);
  const res = await fetch(`${gateway.baseUrl}/images/${endpoint}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.apiKey}`, ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify({ prompt: 'a lighthouse', ...body }) : body,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function firstItem(body: Record<string, unknown>): Promise<Item> {
  const { status, json } = await post('generations', body);
  expect(status, JSON.stringify(json)).toBe(200);
  return (json['data'] as Item[])[0] ?? {};
}

function editForm(fields: Record<string, string>, images: Buffer[], mask?: Buffer): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries({ prompt: 'add a hat', ...fields })) form.append(name, value);
  for (const image of images) form.append(images.length > 1 ? 'image[]' : 'image', new Blob([image], { type: 'image/png' }), 'in.png');
  if (mask) form.append('mask', new Blob([mask], { type: 'image/png' }), 'mask.png');
  return form;
}

function png(width: number, height: number, channels: 3 | 4): Promise<Buffer> {
  return sharp({ create: { width, height, channels, background: { r: 20, g: 90, b: 200, alpha: 0.5 } } })
    .png()
    .toBuffer();
}

describe('gateway emulator: GIF and SVG answers of the gpt-image-2.6 family', () => {
  it('answers output_format gif with a real GIF of the requested size, transparent when asked', async () => {
    const item = await firstItem({ model: 'gpt-image-2.6-sunburst', output_format: 'gif', size: '1536x1024', background: 'transparent' });
    const bytes = Buffer.from(item.b64_json ?? '', 'base64');
    expect(bytes.toString('latin1', 0, 6)).toMatch(/^GIF8[79]a$/);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'gif', width: 1536, height: 1024, hasAlpha: true });
  });

  it('answers output_format svg with an SVG document of the requested size', async () => {
    const { json } = await post('generations', { model: 'gpt-image-2.6-flare', output_format: 'svg', size: '1280x720', complexity: 'medium' });
    expect(json).toMatchObject({ output_format: 'svg', size: '1280x720' });
    const svg = Buffer.from((json['data'] as Item[])[0]?.b64_json ?? '', 'base64').toString('utf8');
    expect(svg).toContain('<svg');
    expect(svg).toMatch(/<svg [^>]*width="1280" height="720"/);
    expect(await sharp(Buffer.from(svg)).metadata()).toMatchObject({ format: 'svg', width: 1280, height: 720 });
  });

  it('serves an svg url item as image/svg+xml', async () => {
    gateway.enqueue({ type: 'success', urlItems: true });
    const item = await firstItem({ model: 'gpt-image-2.6-flare', output_format: 'svg' });
    const download = await fetch(item.url ?? '');
    expect(download.headers.get('content-type')).toBe('image/svg+xml');
    expect(await download.text()).toContain('<svg');
  });
});

describe('gateway emulator: url items', () => {
  it('answers dall-e-3 with a url item on its own /files/ route by default, with revised_prompt', async () => {
    const item = await firstItem({ model: 'dall-e-3' });
    expect(item.b64_json).toBeUndefined();
    expect(item.revised_prompt).toContain('a lighthouse');
    expect(item.url?.startsWith(`${new URL(gateway.baseUrl).origin}/files/`)).toBe(true);
    const download = await fetch(item.url ?? '');
    expect(await sharp(Buffer.from(await download.arrayBuffer())).metadata()).toMatchObject({ format: 'png', width: 1024, height: 1024 });
  });

  it('answers dall-e-2 with a url item by default and b64_json when asked', async () => {
    const byDefault = await firstItem({ model: 'dall-e-2', size: '512x512' });
    expect(byDefault).toEqual({ url: expect.stringContaining('/files/') as string });
    const asked = await firstItem({ model: 'dall-e-2', size: '512x512', response_format: 'b64_json' });
    expect(asked.url).toBeUndefined();
    expect(await sharp(Buffer.from(asked.b64_json ?? '', 'base64')).metadata()).toMatchObject({ width: 512, height: 512 });
  });

  it('answers url items with a file_id and no b64_json when fileIds is set', async () => {
    gateway.enqueue({ type: 'success', fileIds: true });
    const { json } = await post('generations', { model: 'gpt-image-2', n: 2 });
    const items = json['data'] as Item[];
    expect(items).toHaveLength(2);
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(['file_id', 'url']);
      expect(item.file_id).toMatch(/^file-[0-9a-f]{24}$/);
      expect((await fetch(item.url ?? '')).status).toBe(200);
    }
    expect(items[0]?.file_id).not.toBe(items[1]?.file_id);
  });

  it('puts the url and file_id in the completed event of a stream when fileIds is set', async () => {
    gateway.enqueue({ type: 'success', fileIds: true });
    const res = await fetch(`${gateway.baseUrl}/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image-2', prompt: 'p', stream: true }),
    });
    const events = (await res.text()).split('\n').filter((line) => line.startsWith('data: '));
    const completed = JSON.parse(events.at(-1)?.slice('data: '.length) ?? '{}') as Item & { type: string };
    expect(completed).toMatchObject({
      type: 'image_generation.completed',
      url: expect.any(String) as string,
      file_id: expect.stringMatching(/^file-/) as string,
    });
    expect(completed.b64_json).toBeUndefined();
  });
});

describe('gateway emulator: edits per model', () => {
  it('refuses an edit with dall-e-3', async () => {
    const { status, json } = await post('edits', editForm({ model: 'dall-e-3' }, [await png(64, 64, 4)]));
    expect(status).toBe(400);
    expect(json['error']).toMatchObject({ type: 'invalid_request_error', param: 'model', code: 'invalid_value' });
  });

  it('takes one square RGBA PNG and a mask for dall-e-2, answering a url item', async () => {
    const { status, json } = await post('edits', editForm({ model: 'dall-e-2', size: '256x256' }, [await png(64, 64, 4)], await png(64, 64, 4)));
    expect(status).toBe(200);
    expect((json['data'] as Item[])[0]).toEqual({ url: expect.stringContaining('/files/') as string });
  });

  it.each([
    ['two images', async () => [await png(64, 64, 4), await png(64, 64, 4)], 'dall-e-2 takes exactly one image, got 2.'],
    [
      'a JPEG',
      async () => [
        await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123456' } })
          .jpeg()
          .toBuffer(),
      ],
      'Uploaded image must be a PNG and less than 4 MB.',
    ],
    ['a PNG of 4 MB', async () => [await noisePng(1100)], 'Uploaded image must be a PNG and less than 4 MB.'],
    ['an RGB PNG', async () => [await png(64, 64, 3)], "Invalid input image - format must be in ['RGBA', 'LA', 'L'], got RGB."],
    ['a PNG that is not square', async () => [await png(64, 48, 4)], 'Invalid image: image must be square'],
  ])('refuses %s for a dall-e-2 edit', async (_what, images, message) => {
    const { status, json } = await post('edits', editForm({ model: 'dall-e-2' }, await images()));
    expect(status).toBe(400);
    expect(json['error']).toMatchObject({ type: 'invalid_request_error', param: 'image', code: 'invalid_value' });
    expect((json['error'] as { message: string }).message).toContain(message);
  });

  it('checks moderation on a GPT image edit, which the stored spec leaves open', async () => {
    const { status, json } = await post('edits', editForm({ model: 'gpt-image-1.5', moderation: 'high' }, [await png(64, 64, 4)]));
    expect(status).toBe(400);
    expect(json['error']).toMatchObject({ param: 'moderation', code: 'invalid_value' });
    expect((await post('edits', editForm({ model: 'gpt-image-1.5', moderation: 'low' }, [await png(64, 64, 4)]))).status).toBe(200);
  });
});

/** An RGBA PNG of noise, which PNG cannot compress: side 1100 weighs about 4.8 MB. */
function noisePng(side: number): Promise<Buffer> {
  const pixels = Buffer.alloc(side * side * 4);
  let seed = 12345;
  for (let i = 0; i < pixels.length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    pixels[i] = seed >>> 24;
  }
  return sharp(pixels, { raw: { width: side, height: side, channels: 4 } })
    .png()
    .toBuffer();
}
