/**
 * The SVG render child (issue 28): draws a document at the size it declares, within sharp's pixel limit; is killed
 * at its time limit whatever librsvg is doing; reads no more output than allowed; and reports librsvg's refusal.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { rasteriseSvg, RasteriseError } from '../../src/service/svg-rasterise.js';

const LIMITS = { maxPixels: 2048 * 2048, timeoutMs: 10_000, maxOutputBytes: 16 * 1024 * 1024 };
const doc = (width: number, height: number, body = '') =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="#3a7"/>${body}</svg>`,
  );

/** Within every cap of the sanitiser, and still slow to draw: far past a second. */
const SLOW = doc(
  1024,
  1024,
  `<filter id="f">${Array.from({ length: 16 }, (_, i) => `<feTurbulence baseFrequency="0.0${i + 1}" numOctaves="4"/><feGaussianBlur stdDeviation="90"/>`).join('')}</filter>${'<rect width="1024" height="1024" filter="url(#f)"/>'.repeat(8)}`,
);

describe('rasteriseSvg', () => {
  it('draws the document as a PNG of the size it declares', async () => {
    const drawn = await rasteriseSvg(doc(300, 200), LIMITS);
    expect([drawn.width, drawn.height]).toEqual([300, 200]);
    expect(await sharp(drawn.bytes).metadata()).toMatchObject({ format: 'png', width: 300, height: 200 });
  });

  it("refuses a document larger than sharp's pixel limit", async () => {
    await expect(rasteriseSvg(doc(2049, 2048), LIMITS)).rejects.toMatchObject({ reason: 'failed', message: expect.stringContaining('pixel limit') as unknown });
  });

  it('stops reading a drawing larger than allowed', async () => {
    const noisy = doc(512, 512, '<filter id="n"><feTurbulence baseFrequency="0.9"/></filter><rect width="512" height="512" filter="url(#n)"/>');
    await expect(rasteriseSvg(noisy, { ...LIMITS, maxOutputBytes: 10_000 })).rejects.toMatchObject({ reason: 'too_large' });
  });

  it('kills a drawing at its time limit', async () => {
    const err = await rasteriseSvg(SLOW, { ...LIMITS, timeoutMs: 500 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RasteriseError);
    expect(err).toMatchObject({ reason: 'timeout' });
  });

  it('reports what librsvg refused', async () => {
    await expect(rasteriseSvg(Buffer.from('<svg'), LIMITS)).rejects.toMatchObject({ reason: 'failed' });
  });
});
