/**
 * The gateway's images are checked from their headers (issue 28): a raster image declaring more than the pixel
 * cap is refused as `image_too_large` without a pixel decoded; an SVG's declared size is read from the document,
 * however large, and never by sharp. Headers are read by image-size, for every raster format the gateway may send.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkImage } from '../../src/gateway/decode.js';
import { GatewayResponseError } from '../../src/gateway/errors.js';
import { declaredPng } from '../emulators/gateway/png-bomb.js';

const CAP = 50_000_000;

describe('checkImage', () => {
  it('refuses a PNG declaring 20000x20000 from its header, naming its size and the cap', async () => {
    const err = await checkImage(declaredPng(20_000, 20_000), 'png', CAP).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayResponseError);
    expect(err).toMatchObject({ category: 'gateway_failure', code: 'image_too_large', pixels: { width: 20_000, height: 20_000, max: CAP } });
  });

  it('reads only the header: the same short PNG under a larger cap passes with its declared size (a decode would find it short)', async () => {
    const bomb = declaredPng(20_000, 20_000);
    await expect(sharp(bomb).raw().toBuffer()).rejects.toThrow();
    await expect(checkImage(bomb, 'png', 400_000_000)).resolves.toMatchObject({ width: 20_000, height: 20_000 });
  });

  it('passes an image within the cap', async () => {
    const png = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#123' } })
      .png()
      .toBuffer();
    await expect(checkImage(png, 'png', 64 * 32)).resolves.toMatchObject({ width: 64, height: 32 });
    await expect(checkImage(png, 'png', 64 * 32 - 1)).rejects.toMatchObject({ code: 'image_too_large' });
  });

  it('reads the dimensions of jpeg, webp and gif answers from their headers', async () => {
    const base = sharp({ create: { width: 40, height: 24, channels: 3, background: '#456' } });
    for (const format of ['jpeg', 'webp', 'gif'] as const) {
      const bytes = await base.clone().toFormat(format).toBuffer();
      await expect(checkImage(bytes, format, CAP)).resolves.toMatchObject({ format, width: 40, height: 24 });
    }
  });

  it('refuses as invalid_image a PNG whose header is cut short', async () => {
    const cut = declaredPng(64, 64).subarray(0, 12);
    await expect(checkImage(cut, 'png', CAP)).rejects.toMatchObject({ code: 'invalid_image' });
  });

  it("reads an SVG's declared size from the document, past sharp's limits, without refusing it (the bot draws it at its own size)", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="300000" height="300000"/>');
    await expect(checkImage(svg, 'svg', CAP)).resolves.toMatchObject({ format: 'svg', width: 300_000, height: 300_000 });
  });
});
