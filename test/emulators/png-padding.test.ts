import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { padPng } from './gateway/png-padding.js';

describe('padPng', () => {
  it('grows a PNG to the exact size, and it still decodes to the same pixels', async () => {
    const png = await sharp({ create: { width: 8, height: 4, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const padded = padPng(png, 100_000);
    expect(padded.length).toBe(100_000);
    const { data, info } = await sharp(padded).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([8, 4]);
    expect(data.equals(await sharp(png).raw().toBuffer())).toBe(true);
  });
});
