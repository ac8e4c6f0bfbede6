import OpenAI, { toFile } from 'openai';
import sharp, { type Sharp } from 'sharp';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayEmulator, type GatewayEmulator } from './gateway/index.js';

let gateway: GatewayEmulator;
let client: OpenAI;
let png: Buffer;
let jpeg: Buffer;
let webp: Buffer;
let mask: Buffer;

function solid(width: number, height: number, channels: 3 | 4): Sharp {
  return sharp({ create: { width, height, channels, background: { r: 10, g: 200, b: 30, alpha: channels === 4 ? 0 : 1 } } });
}

beforeAll(async () => {
  png = await solid(64, 64, 3).png().toBuffer();
  jpeg = await solid(64, 64, 3).jpeg().toBuffer();
  webp = await solid(64, 64, 3).webp().toBuffer();
  mask = await solid(64, 64, 4).png().toBuffer();
});

beforeEach(async () => {
  gateway = await startGatewayEmulator();
  client = new OpenAI({ apiKey: gateway.apiKey, baseURL: gateway.baseUrl, maxRetries: 0 });
});

afterEach(async () => {
  await gateway.close();
});

describe('gateway emulator: edits', () => {
  it('edits one image sent as a single image part and returns a real PNG', async () => {
    const result = await client.images.edit({
      model: 'gpt-image-1',
      prompt: 'add a hat',
      image: await toFile(png, 'in.png', { type: 'image/png' }),
      size: '1024x1536',
    });
    const meta = await sharp(Buffer.from(result.data?.[0]?.b64_json ?? '', 'base64')).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 1024, height: 1536 });
    const form = gateway.imageRequests()[0]?.form;
    expect(form?.files).toEqual([{ field: 'image', filename: 'in.png', contentType: 'image/png', bytes: png }]);
    expect(form?.fields).toMatchObject({ model: 'gpt-image-1', prompt: 'add a hat', size: '1024x1536' });
    expect(gateway.specViolations).toEqual([]);
  });

  it('records several images as repeated image[] parts with exact bytes and order, and the mask', async () => {
    await client.images.edit({
      model: 'gpt-image-1',
      prompt: 'combine',
      image: [
        await toFile(png, 'a.png', { type: 'image/png' }),
        await toFile(jpeg, 'b.jpg', { type: 'image/jpeg' }),
        await toFile(webp, 'c.webp', { type: 'image/webp' }),
      ],
      mask: await toFile(mask, 'mask.png', { type: 'image/png' }),
      input_fidelity: 'high',
    });
    const form = gateway.imageRequests()[0]?.form;
    const images = form?.files.filter((f) => f.field === 'image[]') ?? [];
    expect(images.map((f) => f.filename)).toEqual(['a.png', 'b.jpg', 'c.webp']);
    expect(images.map((f) => f.bytes)).toEqual([png, jpeg, webp]);
    expect(form?.files.find((f) => f.field === 'mask')?.bytes).toEqual(mask);
    expect(form?.order.filter((name) => name === 'image[]')).toHaveLength(3);
    expect(form?.fields['input_fidelity']).toBe('high');
    expect(gateway.specViolations).toEqual([]);
  });

  it('accepts moderation on edits, as the gateway doc allows', async () => {
    await client.images.edit({
      model: 'gpt-image-1',
      prompt: 'x',
      image: await toFile(png, 'in.png', { type: 'image/png' }),
      moderation: 'low',
    } as OpenAI.Images.ImageEditParamsNonStreaming);
    expect(gateway.imageRequests()[0]?.form?.fields['moderation']).toBe('low');
    expect(gateway.specViolations).toEqual([]);
  });

  it('rejects an input that is not png, jpeg or webp by its magic bytes', async () => {
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    const error = await client.images
      .edit({ model: 'gpt-image-1', prompt: 'x', image: await toFile(gif, 'in.png', { type: 'image/png' }) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param: 'image', type: 'invalid_request_error', code: 'invalid_value' });
  });

  it('rejects a mask without alpha or with other dimensions than the first image', async () => {
    const noAlpha = await solid(64, 64, 3).png().toBuffer();
    const otherSize = await solid(32, 32, 4).png().toBuffer();
    for (const bad of [noAlpha, otherSize, jpeg]) {
      const error = await client.images
        .edit({
          model: 'gpt-image-1',
          prompt: 'x',
          image: await toFile(png, 'in.png', { type: 'image/png' }),
          mask: await toFile(bad, 'mask.png', { type: 'image/png' }),
        })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 400, param: 'mask', code: 'invalid_value' });
    }
  });

  it('answers a JSON edit body with 400 (the gateway relays multipart edits only)', async () => {
    const res = await fetch(`${gateway.baseUrl}/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image-1', prompt: 'x', images: [{ image_url: 'https://example.com/a.png' }] }),
    });
    expect(res.status).toBe(400);
  });
});
