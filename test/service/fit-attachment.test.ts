import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { fitToLimit } from '../../src/service/fit-attachment.js';
import type { GeneratedImage } from '../../src/core/images.js';

const WIDTH = 1536;
const HEIGHT = 1024;

/** Deterministic noise (mulberry32), the worst case for every encoder: at 1536×1024, a PNG of about 5 MB. */
function noise(width: number, height: number, channels: 3 | 4, alpha?: number): Buffer {
  const raw = Buffer.alloc(width * height * channels);
  let seed = 42;
  for (let i = 0; i < raw.length; i += 4) {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    raw.writeUInt32LE((t ^ (t >>> 14)) >>> 0, i);
  }
  if (alpha !== undefined) for (let i = 3; i < raw.length; i += 4) raw[i] = alpha;
  return raw;
}

async function png(width: number, height: number, channels: 3 | 4, alpha?: number): Promise<GeneratedImage> {
  const bytes = await sharp(noise(width, height, channels, alpha), { raw: { width, height, channels } })
    .png({ compressionLevel: 1 })
    .toBuffer();
  return { bytes, format: 'png', width, height };
}

let opaque: GeneratedImage;
/** Cases that walk the whole ladder use a quarter of the pixels (and limits): noise is slow to encode. */
let quarter: GeneratedImage;
let translucent: GeneratedImage;
let opaqueWithAlpha: GeneratedImage;

beforeAll(async () => {
  [opaque, quarter, translucent, opaqueWithAlpha] = await Promise.all([
    png(WIDTH, HEIGHT, 3),
    png(WIDTH / 2, HEIGHT / 2, 3),
    png(WIDTH / 2, HEIGHT / 2, 4, 128),
    png(WIDTH / 2, HEIGHT / 2, 4, 255),
  ]);
});

describe('fitToLimit', () => {
  it('returns an image that fits as is, without copying it', async () => {
    const small = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const image: GeneratedImage = { bytes: small, format: 'png', width: 8, height: 8 };
    const outcome = await fitToLimit(image, small.length, 50_000_000);
    expect(outcome.kind).toBe('original');
    if (outcome.kind === 'original') expect(outcome.image.bytes).toBe(small);
  });

  it('re-encodes a large PNG as WebP under the limit, keeping its size', async () => {
    const limit = 1_500_000;
    expect(opaque.bytes.length).toBeGreaterThan(3 * limit);
    const outcome = await fitToLimit(opaque, limit, 50_000_000);
    if (outcome.kind !== 'reencoded') throw new Error(`expected reencoded, got ${outcome.kind}`);
    expect(outcome.from).toBe('png');
    expect(outcome.image.format).toBe('webp');
    expect(outcome.image.bytes.length).toBeLessThanOrEqual(limit);
    const meta = await sharp(outcome.image.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', WIDTH, HEIGHT]);
    expect([outcome.image.width, outcome.image.height]).toEqual([WIDTH, HEIGHT]);
  });

  it('picks the highest WebP quality that fits', async () => {
    const [q90, q80] = await Promise.all([90, 80].map((quality) => sharp(quarter.bytes).webp({ quality }).toBuffer()));
    expect(q80?.length).toBeLessThan(q90?.length ?? 0);
    const outcome = await fitToLimit(quarter, q80?.length ?? 0, 50_000_000);
    expect(outcome.kind === 'reencoded' && outcome.image.bytes.equals(q80 ?? Buffer.alloc(0))).toBe(true);
  });

  it('falls back to JPEG for an opaque image WebP cannot shrink enough', async () => {
    const limit = 150_000;
    const outcome = await fitToLimit(quarter, limit, 50_000_000);
    if (outcome.kind !== 'reencoded') throw new Error(`expected reencoded, got ${outcome.kind}`);
    expect(outcome.image.format).toBe('jpeg');
    expect(outcome.image.bytes.length).toBeLessThanOrEqual(limit);
    expect((await sharp(outcome.image.bytes).metadata()).format).toBe('jpeg');
  });

  it('treats a fully opaque alpha channel as opaque, so JPEG is allowed', async () => {
    const outcome = await fitToLimit(opaqueWithAlpha, 150_000, 50_000_000);
    expect(outcome.kind === 'reencoded' && outcome.image.format).toBe('jpeg');
  });

  it('keeps transparency: a translucent image becomes WebP with alpha', async () => {
    const outcome = await fitToLimit(translucent, 500_000, 50_000_000);
    if (outcome.kind !== 'reencoded') throw new Error(`expected reencoded, got ${outcome.kind}`);
    expect(outcome.image.format).toBe('webp');
    expect((await sharp(outcome.image.bytes).metadata()).hasAlpha).toBe(true);
  });

  it('drops a translucent image rather than flattening it to JPEG', async () => {
    await expect(fitToLimit(translucent, 150_000, 50_000_000)).resolves.toEqual({
      kind: 'dropped',
      bytes: translucent.bytes.length,
    });
  });

  it('drops an image no encoding can fit', async () => {
    await expect(fitToLimit(quarter, 10_000, 50_000_000)).resolves.toEqual({ kind: 'dropped', bytes: quarter.bytes.length });
  });

  it('drops an oversized file that is not a decodable image', async () => {
    const garbage: GeneratedImage = { bytes: Buffer.alloc(5000, 1), format: 'png', width: 10, height: 10 };
    await expect(fitToLimit(garbage, 1000, 50_000_000)).resolves.toEqual({ kind: 'dropped', bytes: 5000 });
  });
});
