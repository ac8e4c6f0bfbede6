/**
 * Previews under the upload limit (issue 28): a partial image that fits goes as it came; a larger one is re-encoded
 * smaller, its work admitted to the memory budget first without waiting; with no room, or when nothing fits, there is
 * no preview.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fitPreview, PREVIEW_MAX_SIDE } from '../../src/service/fit-preview.js';
import { MemoryBudget } from '../../src/service/memory-budget.js';
import type { PartialImage } from '../../src/core/images.js';

async function noisy(width: number, height: number): Promise<PartialImage> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
    .blur(2)
    .png()
    .toBuffer();
  return { index: 0, bytes, format: 'png' };
}

describe('fitPreview', () => {
  it('keeps a preview that fits as it came, taking no room', async () => {
    const image = await noisy(64, 64);
    let asked = 0;
    const fitted = await fitPreview(image, image.bytes.length, () => {
      asked += 1;
      return undefined;
    });
    expect(fitted).toBe(image);
    expect(asked).toBe(0);
  });

  it('re-encodes a larger one within the limit, in room taken from the budget and given back', async () => {
    const image = await noisy(1536, 1024);
    const limit = Math.floor(image.bytes.length / 4);
    const budget = new MemoryBudget();
    const taken: number[] = [];
    const fitted = await fitPreview(image, limit, (bytes) => {
      taken.push(bytes);
      return budget.tryTake(bytes);
    });
    expect(fitted?.format).toBe('webp');
    expect(fitted!.bytes.length).toBeLessThanOrEqual(limit);
    const meta = await sharp(fitted!.bytes).metadata();
    expect(Math.max(meta.width, meta.height)).toBe(PREVIEW_MAX_SIDE);
    expect(taken).toEqual([1536 * 1024 * 4 + limit]);
    expect(budget.inUse).toBe(0);
  });

  it('shows nothing when the budget has no room now, or when even the smaller one does not fit', async () => {
    const image = await noisy(1536, 1024);
    expect(await fitPreview(image, 100_000, () => undefined)).toBeUndefined();
    expect(await fitPreview(image, 200, () => () => undefined)).toBeUndefined();
  });
});
