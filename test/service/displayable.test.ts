/**
 * SVG answers shown as PNG renderings within bounds (issue 28): the long side between 1024 and 2048 (1024 with
 * filters) whatever the document declares, the render's bytes admitted before it starts, one render at a time, a
 * time limit, and the sanitised original posted beside the rendering.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { UserFacingError } from '../../src/errors.js';
import { deliveryFiles, imagesIn } from '../../src/service/delivery-files.js';
import { displayable } from '../../src/service/displayable.js';
import type { GeneratedImage, ImageResult } from '../../src/core/images.js';
import { MAX_LONG_SIDE, renderBytes, SvgRenderer } from '../../src/service/svg-render.js';

const svgOf = (text: string, width = 0, height = 0): GeneratedImage => ({ bytes: Buffer.from(text), format: 'svg', width, height });

const svg = (width: number, height: number): GeneratedImage =>
  svgOf(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="#3a7"/><circle cx="${width / 2}" cy="${height / 2}" r="${height / 4}" fill="#fff"/></svg>`,
    width,
    height,
  );

/** The 336-byte hostile SVG: 4096 square, feTurbulence numOctaves=10 and feGaussianBlur stdDeviation=300. */
const TURBULENT = svgOf(
  '<svg xmlns="http://www.w3.org/2000/svg" width="4096" height="4096"><filter id="f"><feTurbulence baseFrequency="0.05" numOctaves="10"/><feGaussianBlur stdDeviation="300"/></filter><rect width="4096" height="4096" filter="url(#f)"/></svg>',
  4096,
  4096,
);

async function raster(format: 'png' | 'gif'): Promise<GeneratedImage> {
  const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#a33' } })
    .toFormat(format)
    .toBuffer();
  return { bytes, format, width: 64, height: 48 };
}

const result = (images: GeneratedImage[]): ImageResult => ({ images, model: 'gpt-image-2.6-flare', droppedParams: [] });

/** A job's memory that grants what it is asked (up to `room`) and records each request. */
function admitter(room = 64 * 1024 * 1024) {
  const asked: number[] = [];
  return { asked, admit: (bytes: number) => (asked.push(bytes), Promise.resolve(Math.min(bytes, room))) };
}

const shownOne = async (image: GeneratedImage, renderer = new SvgRenderer()) => (await displayable([image], { renderer, admit: admitter().admit }))[0]!;

describe('displayable', () => {
  it('renders an SVG to a PNG of at least 1024 pixels on its long side, keeping its shape, beside its sanitised original', async () => {
    const shown = await shownOne(svg(300, 200));
    expect(shown.image).toMatchObject({ format: 'png', width: 1024, height: 683 });
    expect(await sharp(shown.image.bytes).metadata()).toMatchObject({ format: 'png', width: 1024, height: 683 });
    expect(shown.original).toMatchObject({ format: 'svg', width: 300, height: 200 });
  });

  it.each([
    [20_000, 10_000],
    [294_912, 294_912],
    [400_000, 100],
  ])('never renders past 2048 pixels, whatever the SVG declares (%ix%i)', async (width, height) => {
    const shown = await shownOne(svg(width, height));
    expect(Math.max(shown.image.width, shown.image.height)).toBe(MAX_LONG_SIDE);
    const meta = await sharp(shown.image.bytes).metadata();
    expect(Math.max(meta.width, meta.height)).toBe(MAX_LONG_SIDE);
  });

  it('renders a filtered SVG at 1024 on its long side, its filters clamped, and says so', async () => {
    const shown = await shownOne(TURBULENT);
    expect(shown.image).toMatchObject({ width: 1024, height: 1024 });
    expect(shown.changes).toEqual({ removed: false, simplified: true });
    expect(shown.original?.bytes.toString()).toContain('numOctaves="4"');
  });

  it('posts the sanitised original: no embedded image, no external reference', async () => {
    const hostile = svgOf(
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64"><image href="https://tracker.example/p.png" width="64" height="64"/><rect width="64" height="64" fill="url(https://tracker.example/f.svg#g)"/><use xlink:href="https://tracker.example/s.svg#a"/></svg>',
    );
    const shown = await shownOne(hostile);
    const text = shown.original!.bytes.toString();
    expect(text).not.toContain('tracker.example');
    expect(text).not.toContain('<image');
    expect(shown.changes?.removed).toBe(true);
  });

  it("admits the render's bytes (the pixels and what the job holds) before it starts", async () => {
    const { asked, admit } = admitter();
    const image = svg(300, 200);
    await displayable([image], { renderer: new SvgRenderer(), admit });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toBeGreaterThanOrEqual(image.bytes.length + renderBytes({ width: 1024, height: 683 }, false));
  });

  it('refuses a render that needs more than one answer may hold, before rendering', async () => {
    const { admit } = admitter(1024 * 1024);
    await expect(displayable([svg(300, 200)], { renderer: new SvgRenderer(), admit })).rejects.toMatchObject({ identifier: 'delivery.svgRefused' });
  });

  it('ends with delivery.svgRefused when the sanitiser refuses the document', async () => {
    const many = svgOf(`<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="1" height="1"/>'.repeat(10_001)}</svg>`);
    const err = await displayable([many], { renderer: new SvgRenderer(), admit: admitter().admit }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserFacingError);
    expect(err).toMatchObject({ identifier: 'delivery.svgRefused' });
  });

  it('stops a render that runs past its time limit', async () => {
    // 32 turbulent layers at their clamped 4 octaves each: well past one second at 1024 pixels.
    const layers = Array.from(
      { length: 16 },
      (_, i) => `<feTurbulence baseFrequency="0.0${i + 1}" numOctaves="4" result="t${i}"/><feGaussianBlur in="t${i}" stdDeviation="90"/>`,
    ).join('');
    const slow = svgOf(
      `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024"><filter id="f">${layers}</filter>${'<rect width="1024" height="1024" filter="url(#f)"/>'.repeat(8)}</svg>`,
    );
    const renderer = new SvgRenderer({ timeoutSeconds: 1 });
    await expect(displayable([slow], { renderer, admit: admitter().admit })).rejects.toMatchObject({ identifier: 'delivery.svgRefused' });
  });

  it('runs one render at a time: the next waits for a slot', async () => {
    const renderer = new SvgRenderer({ concurrency: 1 });
    const first = displayable([TURBULENT], { renderer, admit: admitter().admit });
    // The first has taken the slot once its admission resolved; the second then waits for it.
    await Promise.resolve();
    await Promise.resolve();
    const second = displayable([svg(300, 200)], { renderer, admit: admitter().admit });
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(renderer.waiting).toBe(1);
    await Promise.all([first, second]);
    expect(renderer.waiting).toBe(0);
  });

  it('leaves PNG and GIF as they are', async () => {
    for (const format of ['png', 'gif'] as const) {
      const image = await raster(format);
      expect(await shownOne(image)).toEqual({ image });
    }
  });
});

describe('deliveryFiles', () => {
  const bounds = () => ({ svg: { renderer: new SvgRenderer(), admit: admitter().admit }, maxPixels: 50_000_000 });

  it('posts an SVG as its PNG rendering with the original after it, and counts one image', async () => {
    const { files } = await deliveryFiles(result([svg(300, 200), await raster('gif')]), 8 * 1024 * 1024, { n: 2 }, bounds());
    expect(files.map((f) => [f.format, f.original ?? false])).toEqual([
      ['png', false],
      ['svg', true],
      ['gif', false],
    ]);
    expect(imagesIn(files)).toBe(2);
  });

  it('leaves out an original that does not fit the upload limit, but still posts the rendering', async () => {
    const big = svg(300, 200);
    const padded = { ...big, bytes: Buffer.concat([big.bytes.subarray(0, -6), Buffer.from(`<desc>${'x'.repeat(200_000)}</desc></svg>`)]) };
    const { files } = await deliveryFiles(result([padded]), 150_000, {}, bounds());
    expect(files.map((f) => f.format)).toEqual(['png']);
    expect(imagesIn(files)).toBe(1);
  });

  it('notes what the sanitiser removed or toned down', async () => {
    const { notices } = await deliveryFiles(result([TURBULENT]), 8 * 1024 * 1024, {}, bounds());
    expect(notices).toContainEqual({ kind: 'svgCleaned', removed: false, simplified: true });
  });
});
