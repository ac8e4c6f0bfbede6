/**
 * OpenRouter's capability descriptors as model profiles: sizes from its `size` values or its tiers and ratios,
 * a size mapped back to the nearest tier and ratio, the lists and limits it gives, and the fields a body carries.
 */
import { describe, expect, it } from 'vitest';
import { openRouterFields, openRouterImagePost } from '../../src/gateway/openrouter-dialect.js';
import { sizeText } from '../../src/core/sizes.js';
import type { WireValue } from '../../src/gateway/params.js';
import { Descriptor, profileOf, sizeOf, sizesOf, toTierAndRatio, type Descriptors } from '../../src/gateway/openrouter-profile.js';

const oneOf = (...values: string[]) => ({ type: 'enum' as const, values });
const range = (min: number, max: number) => ({ type: 'range' as const, min, max });

const GEMINI: Descriptors = {
  n: range(1, 1),
  resolution: oneOf('512', '1K', '2K', '4K'),
  aspect_ratio: oneOf('1:1', '16:9', '9:16'),
  input_references: range(0, 14),
};

describe('OpenRouter descriptors as a profile', () => {
  it('offers one size per tier and ratio, the tier keeping its area and sides multiples of 16', () => {
    expect(sizeOf('1K', '1:1')).toEqual({ width: 1024, height: 1024 });
    expect(sizeOf('2K', '16:9')).toEqual({ width: 2736, height: 1536 });
    expect(sizeOf('512', '9:16')).toEqual({ width: 384, height: 688 });
    expect(sizeOf('8K', '1:1')).toBeUndefined();
    expect(sizesOf(GEMINI)).toHaveLength(12);
    expect(sizesOf({ aspect_ratio: oneOf('1:1', '3:2', 'auto') }).map(sizeText)).toEqual(['1024x1024', '1248x832']);
    expect(sizesOf({ resolution: oneOf('1K', '2K') }).map(sizeText)).toEqual(['1024x1024', '2048x2048']);
    expect(sizesOf({}).map(sizeText)).toEqual(['1024x1024']);
    expect(sizesOf({ resolution: oneOf('8K') }).map(sizeText)).toEqual(['1024x1024']);
  });

  it("offers the model's own size values when it lists them", () => {
    expect(sizesOf({ size: oneOf('1024x1024', '1536x1024', '2K'), resolution: oneOf('1K') }).map(sizeText)).toEqual(['1024x1024', '1536x1024']);
  });

  it('maps a size back to the nearest tier and aspect ratio the model takes', () => {
    expect(toTierAndRatio({ width: 2736, height: 1536 }, GEMINI)).toEqual({ resolution: '2K', aspect_ratio: '16:9' });
    expect(toTierAndRatio({ width: 1536, height: 1024 }, GEMINI)).toEqual({ resolution: '1K', aspect_ratio: '16:9' });
    expect(toTierAndRatio({ width: 1024, height: 1536 }, { aspect_ratio: oneOf('auto', '1:1', '2:3') })).toEqual({ aspect_ratio: '2:3' });
    expect(toTierAndRatio({ width: 4096, height: 4096 }, { resolution: oneOf('1K', '4K') })).toEqual({ resolution: '4K' });
    expect(toTierAndRatio({ width: 2048, height: 2048 }, { resolution: oneOf('8K', '2K'), aspect_ratio: oneOf('wide', '1:1') })).toEqual({
      resolution: '2K',
      aspect_ratio: '1:1',
    });
  });

  it('gives the lists and limits the descriptors say, and nothing OpenRouter does not take', () => {
    const profile = profileOf(
      {
        n: range(1, 20),
        quality: oneOf('auto', 'low', 'high', 'ultra'),
        background: oneOf('auto', 'opaque'),
        output_format: oneOf('png', 'webp', 'tiff'),
        output_compression: range(0, 100),
        input_references: range(0, 40),
      },
      true,
    );
    expect(profile).toMatchObject({
      maxN: 10,
      qualities: ['auto', 'low', 'high'],
      backgrounds: ['auto', 'opaque'],
      formats: ['png', 'webp'],
      compression: true,
      streaming: true,
      moderation: false,
      styles: [],
      customSizes: null,
      autoSize: false,
      edits: { maxImages: 16, mask: false, inputFidelity: false, squarePng: false },
    });
    const gemini = profileOf(GEMINI, false);
    expect(gemini).toMatchObject({ maxN: 1, qualities: [], formats: [], compression: false, streaming: false, edits: { maxImages: 14 } });
    expect(profileOf({ resolution: oneOf('1K') }, false).edits).toBeNull();
  });

  it('has seeds where the model lists a seed descriptor, and sends the seed only then', () => {
    expect(profileOf({ ...GEMINI, seed: { type: 'other' } }, false).seeds).toBe(true);
    expect(profileOf(GEMINI, false).seeds).toBe(false);
    const seeded = new Map<string, WireValue>([
      ['model', 'm'],
      ['prompt', 'a fox'],
      ['seed', 9],
    ]);
    expect(openRouterFields(seeded, { id: 'm', params: { seed: { type: 'other' } }, streaming: false })).toEqual({ model: 'm', prompt: 'a fox', seed: 9 });
    expect(openRouterFields(seeded, { id: 'm', params: GEMINI, streaming: false })).toEqual({ model: 'm', prompt: 'a fox' });
  });

  it('reads descriptor values as text and keeps a kind it does not know as supported', () => {
    expect(Descriptor.parse({ type: 'enum', values: [512, '1K'] })).toEqual({ type: 'enum', values: ['512', '1K'] });
    expect(Descriptor.parse({ type: 'boolean' })).toEqual({ type: 'other' });
  });
});

describe('OpenRouter request bodies', () => {
  const params = new Map<string, WireValue>([
    ['model', 'm'],
    ['prompt', 'a fox'],
    ['n', 2],
    ['size', { width: 2736, height: 1536 }],
    ['quality', 'high'],
    ['moderation', 'low'],
    ['stream', true],
  ]);

  it('sends what the model lists, the size as its tier and ratio, and streams only where it streams', () => {
    const model = { id: 'm', params: { ...GEMINI, n: range(1, 4) }, streaming: false };
    expect(openRouterFields(params, model)).toEqual({ model: 'm', prompt: 'a fox', n: 2, resolution: '2K', aspect_ratio: '16:9' });
    const sized = { id: 'm', params: { size: oneOf('2736x1536'), quality: oneOf('high') }, streaming: true };
    expect(openRouterFields(params, sized)).toEqual({ model: 'm', prompt: 'a fox', size: '2736x1536', quality: 'high', stream: true });
  });

  it("sends OpenRouter's own fields and the size shorthand for a model its catalogue has not described", () => {
    expect(openRouterFields(params, undefined)).toEqual({ model: 'm', prompt: 'a fox', n: 2, quality: 'high', size: '2736x1536', stream: true });
  });

  it('writes an edit as JSON with its images as data-URL input_references, first', async () => {
    const { makeImage } = await import('./fixtures.js');
    const png = await makeImage('png');
    const jpeg = await makeImage('jpeg');
    const post = openRouterImagePost(
      new Map([
        ['model', 'm'],
        ['prompt', 'p'],
      ]),
      { prompt: 'p', images: [{ bytes: png }, { bytes: jpeg }] },
      undefined,
    );
    const text = Buffer.concat(post.body as Buffer[]).toString('utf8');
    expect(post).toMatchObject({ path: '/images', contentType: 'application/json', length: Buffer.byteLength(text) });
    expect(JSON.parse(text)).toEqual({
      input_references: [
        { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
        { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${jpeg.toString('base64')}` } },
      ],
      model: 'm',
      prompt: 'p',
    });
  });
});

describe('OpenRouter prices', () => {
  it('takes the highest row of each kind, per image and per million tokens, and none when no output price is given', async () => {
    const { pricesOf } = await import('../../src/gateway/openrouter-prices.js');
    const rows = [
      { billable: 'output_image', unit: 'image', variant: '1k', cost_usd: 0.039 },
      { billable: 'output_image', unit: 'image', variant: '4k', cost_usd: '0.156' },
      { billable: 'input_text', unit: 'token', cost_usd: 0.000002 },
      { billable: 'input_image', unit: 'token', cost_usd: 0.00001 },
      { billable: 'output_image', unit: 'token', cost_usd: 0.00004 },
      { billable: 'output_image', unit: 'image', cost_usd: -1 },
      'nonsense',
    ];
    expect(pricesOf(rows)).toEqual({ perImage: 0.156, outputPerMillion: 40, inputTextPerMillion: 2, inputImagePerMillion: 10 });
    expect(pricesOf([{ billable: 'input_text', unit: 'token', cost_usd: 0.000002 }])).toBeUndefined();
    expect(pricesOf([])).toBeUndefined();
  });
});
