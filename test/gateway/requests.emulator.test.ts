/**
 * What the client puts on the wire, proved against the gateway emulator over real sockets: every parameter of both
 * endpoints, multipart part order and exact bytes, headers, and the bad call option refused before it reaches the
 * gateway. Requests arrive validated by the service (the ImageGateway contract), so the client sends them as they
 * are; the request refusals are tested where they run, in test/service/preflight.emulator.test.ts.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from 'undici';
import type { GatewayClient } from '../../src/gateway/gateway-client.js';
import { ImageInputError } from '../../src/core/image-rules.js';
import type { EditRequest, GenerateRequest } from '../../src/core/images.js';
import { startGatewayEmulator, type GatewayEmulator } from '../emulators/gateway/index.js';
import { clientFor, makeImage } from './fixtures.js';
import { finalResult } from '../support/image-stream.js';

let gw: GatewayEmulator;
let client: GatewayClient;
let agent: Agent;

beforeEach(async () => {
  gw = await startGatewayEmulator();
  ({ client, agent } = clientFor(gw));
});

afterEach(async () => {
  expect(gw.specViolations).toEqual([]);
  await agent.close();
  await gw.close();
});

function lastImageRequest() {
  const request = gw.imageRequests().at(-1);
  if (!request) throw new Error('no image request arrived');
  return request;
}

describe('POST /images/generations', () => {
  it('sends only model and prompt when nothing else is set, with auth and an idempotency key', async () => {
    const result = await finalResult(client.generate({ prompt: 'a red fox' }));
    const sent = lastImageRequest();
    expect(sent.path).toBe('/v1/images/generations');
    expect(sent.json).toEqual({ model: 'gpt-image-1', prompt: 'a red fox' });
    expect(sent.headers['authorization']).toBe(`Bearer ${gw.apiKey}`);
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(result).toMatchObject({ model: 'gpt-image-1', droppedParams: [] });
    expect(result.images).toHaveLength(1);
    expect(result.images[0]).toMatchObject({ format: 'png', width: 1024, height: 1024 });
    expect(result.requestId).toBeTruthy();
  });

  it('maps every option to its wire name and type, and never sends response_format', async () => {
    const req: GenerateRequest = {
      prompt: 'a red fox',
      model: 'gpt-image-2',
      size: { width: 1536, height: 864 },
      quality: 'high',
      background: 'opaque',
      outputFormat: 'webp',
      outputCompression: 40,
      n: 2,
      moderation: 'low',
    };
    const result = await finalResult(client.generate(req));
    expect(lastImageRequest().json).toEqual({
      model: 'gpt-image-2',
      prompt: 'a red fox',
      n: 2,
      size: '1536x864',
      quality: 'high',
      background: 'opaque',
      output_format: 'webp',
      output_compression: 40,
      moderation: 'low',
    });
    expect(result.images.map((i) => [i.format, i.width, i.height])).toEqual([
      ['webp', 1536, 864],
      ['webp', 1536, 864],
    ]);
    expect(result.usage).toEqual({
      inputTokens: expect.any(Number) as number,
      outputTokens: expect.any(Number) as number,
      totalTokens: expect.any(Number) as number,
      inputTextTokens: expect.any(Number) as number,
      inputImageTokens: 0,
    });
  });

  it('sends a request as it is given: the service has validated and normalised it', async () => {
    await finalResult(client.generate({ prompt: ' a sticker ', background: 'transparent' }));
    // The service's rules would have trimmed the prompt and added output_format png.
    expect(lastImageRequest().json).toEqual({ model: 'gpt-image-1', prompt: ' a sticker ', background: 'transparent' });
  });

  it('asks for a stream only when the caller does', async () => {
    await finalResult(client.generate({ prompt: 'a red fox' }, { stream: true, partialImages: 2 }));
    expect(lastImageRequest().json).toMatchObject({ stream: true, partial_images: 2 });
    expect(lastImageRequest().json).not.toHaveProperty('response_format');
  });
});

describe('POST /images/edits', () => {
  it('sends text fields, then one image[] part per image in order, then the mask, with exact bytes', async () => {
    const png = await makeImage('png', 64, 48);
    const jpeg = await makeImage('jpeg', 64, 48);
    const webp = await makeImage('webp', 64, 48);
    const mask = await makeImage('png', 64, 48, true);
    const req: EditRequest = {
      prompt: 'make it blue',
      images: [
        { bytes: png, filename: 'first.png' },
        // A wrong extension is corrected from the bytes: relays guess the type from the name.
        { bytes: jpeg, filename: 'photo.png' },
        { bytes: webp },
      ],
      mask: { bytes: mask, filename: 'my mask.png' },
      size: { width: 1024, height: 1536 },
      quality: 'low',
      background: 'auto',
      outputFormat: 'jpeg',
      outputCompression: 80,
      n: 1,
      moderation: 'auto',
      inputFidelity: 'high',
    };
    const result = await finalResult(client.edit(req));
    const form = lastImageRequest().form;
    expect(lastImageRequest().path).toBe('/v1/images/edits');
    expect(lastImageRequest().headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(form?.order).toEqual([
      'model',
      'prompt',
      'n',
      'size',
      'quality',
      'background',
      'output_format',
      'output_compression',
      'moderation',
      'input_fidelity',
      'image[]',
      'image[]',
      'image[]',
      'mask',
    ]);
    expect(form?.fields).toEqual({
      model: 'gpt-image-1',
      prompt: 'make it blue',
      n: '1',
      size: '1024x1536',
      quality: 'low',
      background: 'auto',
      output_format: 'jpeg',
      output_compression: '80',
      moderation: 'auto',
      input_fidelity: 'high',
    });
    expect(form?.files.map((f) => [f.field, f.filename, f.contentType])).toEqual([
      ['image[]', 'first.png', 'image/png'],
      ['image[]', 'photo.jpg', 'image/jpeg'],
      ['image[]', 'image-3.webp', 'image/webp'],
      ['mask', 'my_mask.png', 'image/png'],
    ]);
    expect(form?.files.map((f) => f.bytes)).toEqual([png, jpeg, webp, mask]);
    expect(result.images[0]).toMatchObject({ format: 'jpeg', width: 1024, height: 1536 });
  });

  it('sends a single image as one image[] part and streams as text fields', async () => {
    await finalResult(client.edit({ prompt: 'p', images: [{ bytes: await makeImage('png') }] }, { stream: true, partialImages: 1 }));
    const form = lastImageRequest().form;
    expect(form?.order).toEqual(['model', 'prompt', 'stream', 'partial_images', 'image[]']);
    expect(form?.fields).toMatchObject({ stream: 'true', partial_images: '1' });
  });
});

describe('pre-flight refusals', () => {
  it('refuses partial_images of 4, a call option, before anything reaches the gateway', async () => {
    await expect(finalResult(client.generate({ prompt: 'p' }, { stream: true, partialImages: 4 }))).rejects.toMatchObject({ param: 'partial_images' });
    await expect(finalResult(client.generate({ prompt: 'p' }, { stream: true, partialImages: 4 }))).rejects.toBeInstanceOf(ImageInputError);
    expect(gw.requests).toEqual([]);
  });

  it('does not validate requests itself: the gateway client imports none of the rules that check them', () => {
    const source = readFileSync(new URL('../../src/gateway/gateway-client.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/validate(Generate|Edit)Request|checkMask|image-rules/);
  });
});
