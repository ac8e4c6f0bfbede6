import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { UserFacingError } from '../../src/errors.js';
import { EXPRESSION_SPECS } from '../../src/core/expressions.js';
import { expressionImage } from '../../src/service/expression-image.js';

const options = { filename: 'result.png', maxPixels: 50_000_000, timeoutSeconds: 10 };

/** A wide image: red on the left third, green in the middle, blue on the right. */
async function stripes(width: number, height: number): Promise<Buffer> {
  const third = Math.round(width / 3);
  const block = (colour: string, w: number) =>
    sharp({ create: { width: w, height, channels: 3, background: colour } })
      .png()
      .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#000000' } })
    .composite([
      { input: await block('#ff0000', third), left: 0, top: 0 },
      { input: await block('#00ff00', width - 2 * third), left: third, top: 0 },
      { input: await block('#0000ff', third), left: width - third, top: 0 },
    ])
    .png()
    .toBuffer();
}

/** Noise: a photo's worst case for PNG. */
function noise(side: number): Promise<Buffer> {
  const pixels = Buffer.from(Array.from({ length: side * side * 3 }, (_, i) => (i * 2654435761 + (i >> 7)) % 253));
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => err as UserFacingError,
  );

describe('an image made into an emoji or a sticker', () => {
  it('crops the centre square of a wide image and resizes it to the emoji’s 128 pixels', async () => {
    const png = await expressionImage(await stripes(900, 300), EXPRESSION_SPECS.emoji, options);
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 128, 128]);
    // The middle third (green) fills the square: the red and blue sides are cut off.
    const { channels } = await sharp(png).stats();
    expect(channels[0]?.mean).toBeLessThan(8);
    expect(channels[1]?.mean).toBeGreaterThan(240);
    expect(channels[2]?.mean).toBeLessThan(8);
  });

  it('makes a sticker a 320x320 PNG, a small image scaled up', async () => {
    const png = await expressionImage(await stripes(90, 60), EXPRESSION_SPECS.sticker, options);
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 320, height: 320 });
    expect(png.length).toBeLessThanOrEqual(EXPRESSION_SPECS.sticker.maxBytes);
  });

  it('takes fewer colours when the full-colour PNG is over the limit, and stays within it', async () => {
    const source = await noise(400);
    const full = await expressionImage(source, { side: 320, maxBytes: 10_000_000 }, options);
    const limit = Math.floor(full.length / 2);
    const fitted = await expressionImage(source, { side: 320, maxBytes: limit }, options);
    expect(fitted.length).toBeLessThanOrEqual(limit);
    const meta = await sharp(fitted).metadata();
    expect([meta.format, meta.width, meta.height, meta.isPalette]).toEqual(['png', 320, 320, true]);
  });

  it('refuses, saying the limit, an image that will not fit even with the fewest colours', async () => {
    const err = await refusal(expressionImage(await noise(200), { side: 320, maxBytes: 2_000 }, options));
    expect(err).toBeInstanceOf(UserFacingError);
    expect(err?.identifier).toBe('expression.tooLarge');
    expect(err?.context.limit).toBe(1);
  });

  it('refuses an image declaring more pixels than the cap, before decoding it, and bytes that are no image', async () => {
    const big = await sharp({ create: { width: 3000, height: 3000, channels: 3, background: '#808080' } })
      .png()
      .toBuffer();
    const capped = await refusal(expressionImage(big, EXPRESSION_SPECS.emoji, { ...options, maxPixels: 1_000_000 }));
    expect(capped?.identifier).toBe('input.attachmentInvalid');
    expect(JSON.stringify(capped?.context.detail)).toContain('detail.image.tooManyPixels');
    const junk = await refusal(expressionImage(Buffer.from('not an image'), EXPRESSION_SPECS.emoji, options));
    expect(junk?.identifier).toBe('input.attachmentInvalid');
  });
});
