import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { deliveryFiles, imagesIn } from '../../src/service/delivery-files.js';
import { displayable } from '../../src/service/displayable.js';
import type { GeneratedImage, ImageResult } from '../../src/service/ports.js';

const svg = (width: number, height: number): GeneratedImage => ({
  bytes: Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="#3a7"/><circle cx="${width / 2}" cy="${height / 2}" r="${height / 4}" fill="#fff"/></svg>`,
  ),
  format: 'svg',
  width,
  height,
});

async function raster(format: 'png' | 'gif'): Promise<GeneratedImage> {
  const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#a33' } })
    .toFormat(format)
    .toBuffer();
  return { bytes, format, width: 64, height: 48 };
}

const result = (images: GeneratedImage[]): ImageResult => ({ images, model: 'gpt-image-2.6-flare', droppedParams: [] });

describe('displayable', () => {
  it('renders an SVG to a PNG of at least 1024 pixels on its long side, keeping its shape, and keeps the original', async () => {
    const original = svg(300, 200);
    const shown = await displayable(original);
    expect(shown.original).toBe(original);
    expect(shown.image).toMatchObject({ format: 'png', width: 1024, height: 683 });
    expect(await sharp(shown.image.bytes).metadata()).toMatchObject({ format: 'png', width: 1024, height: 683 });
  });

  it('never renders past 4096 pixels, whatever the SVG says', async () => {
    const shown = await displayable(svg(20_000, 10_000));
    expect(shown.image).toMatchObject({ width: 4096, height: 2048 });
  });

  it('leaves PNG and GIF as they are', async () => {
    for (const format of ['png', 'gif'] as const) {
      const image = await raster(format);
      expect(await displayable(image)).toEqual({ image });
    }
  });
});

describe('deliveryFiles', () => {
  it('posts an SVG as its PNG rendering with the original after it, and counts one image', async () => {
    const { files } = await deliveryFiles(result([svg(300, 200), await raster('gif')]), 8 * 1024 * 1024, { n: 2 });
    expect(files.map((f) => [f.format, f.original ?? false])).toEqual([
      ['png', false],
      ['svg', true],
      ['gif', false],
    ]);
    expect(imagesIn(files)).toBe(2);
  });

  it('leaves out an original that does not fit the upload limit, but still posts the rendering', async () => {
    const big = svg(300, 200);
    const padded = { ...big, bytes: Buffer.concat([big.bytes, Buffer.from(`<!--${'x'.repeat(200_000)}-->`)]) };
    const { files } = await deliveryFiles(result([padded]), 150_000, {});
    expect(files.map((f) => f.format)).toEqual(['png']);
    expect(imagesIn(files)).toBe(1);
  });
});
