/**
 * The note a member reads when the gateway made fewer images than asked: how many came back, and how many are
 * charged (the images posted: not an SVG's original, not an image too large to post).
 */
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { deliveryFiles, imagesIn } from '../../src/service/delivery-files.js';
import type { GeneratedImage, ImageResult } from '../../src/core/images.js';
import { SvgRenderer } from '../../src/service/svg-render.js';

async function flat(): Promise<GeneratedImage> {
  const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#37a' } })
    .png()
    .toBuffer();
  return { bytes, format: 'png', width: 64, height: 48 };
}

/** Noise: no encoding gets it under a few kilobytes. */
async function noise(): Promise<GeneratedImage> {
  const bytes = await sharp(randomBytes(256 * 256 * 3), { raw: { width: 256, height: 256, channels: 3 } })
    .png()
    .toBuffer();
  return { bytes, format: 'png', width: 256, height: 256 };
}

const SVG: GeneratedImage = {
  bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200"><rect width="300" height="200" fill="#3a7"/></svg>'),
  format: 'svg',
  width: 300,
  height: 200,
};

const result = (images: GeneratedImage[]): ImageResult => ({ images, model: 'gpt-image-2.6-flare', droppedParams: [] });
const MB = 1024 * 1024;
const bounds = { svg: { renderer: new SvgRenderer(), admit: (bytes: number) => Promise.resolve(bytes) }, maxPixels: 50_000_000 };

describe('deliveryFiles: fewer images than asked', () => {
  it('says first that 1 of 3 came back and 1 is charged', async () => {
    const { files, notices } = await deliveryFiles(result([await flat()]), 8 * MB, { n: 3 }, bounds);
    expect(imagesIn(files)).toBe(1);
    expect(notices[0]).toEqual({ kind: 'fewer', requested: 3, received: 1, charged: 1 });
  });

  it.each<[string, number | undefined, number]>([
    ['all that were asked', 2, 2],
    ['one, asked without a count', undefined, 1],
    ['more than asked', 1, 2],
  ])('says nothing when the gateway made %s', async (_name, n, made) => {
    const images = await Promise.all(Array.from({ length: made }, () => flat()));
    const { notices } = await deliveryFiles(result(images), 8 * MB, { n }, bounds);
    expect(notices.filter((notice) => notice.kind === 'fewer')).toEqual([]);
  });

  it('counts an SVG once, not its original beside its rendering', async () => {
    const { files, notices } = await deliveryFiles(result([SVG]), 8 * MB, { n: 2 }, bounds);
    expect(files).toHaveLength(2);
    expect(notices[0]).toEqual({ kind: 'fewer', requested: 2, received: 1, charged: 1 });
  });

  it('charges only what is posted when one of the images that came back is too large to post', async () => {
    const { files, notices } = await deliveryFiles(result([await flat(), await noise()]), 4_000, { n: 3 }, bounds);
    expect(imagesIn(files)).toBe(1);
    expect(notices).toEqual([
      { kind: 'fewer', requested: 3, received: 2, charged: 1 },
      { kind: 'dropped', count: 1 },
    ]);
  });
});
