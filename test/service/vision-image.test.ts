/**
 * The image /describe sends (vision-image.ts): a small upright image goes as it came; anything larger, a GIF or a
 * rotated JPEG is re-encoded as a JPEG within VISION_MAX_SIDE; an image declaring more than VISION_MAX_INPUT_PIXELS,
 * or one sharp cannot read, is refused with a message, before any pixel is decoded.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { UserFacingError } from '../../src/errors.js';
import { VISION_MAX_SIDE, visionImage } from '../../src/service/vision-image.js';
import { declaredPng } from '../emulators/gateway/png-bomb.js';

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#3a6' } });

describe('visionImage', () => {
  it('sends a small upright PNG as it came, the same bytes', async () => {
    const png = await solid(64, 48).png().toBuffer();
    const sent = await visionImage(png, 'png', 'a.png', 10);
    expect(sent).toEqual({ bytes: png, format: 'png' });
  });

  it(`re-encodes a wide image as a JPEG of at most ${VISION_MAX_SIDE} pixels on its long side`, async () => {
    const png = await solid(3000, 1000).png().toBuffer();
    const sent = await visionImage(png, 'png', 'wide.png', 10);
    expect(sent.format).toBe('jpeg');
    const meta = await sharp(sent.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', VISION_MAX_SIDE, 683]);
  });

  it('re-encodes a GIF, however small, as a JPEG', async () => {
    const gif = await solid(32, 32).gif().toBuffer();
    const sent = await visionImage(gif, 'gif', 'a.gif', 10);
    expect(sent.format).toBe('jpeg');
    expect((await sharp(sent.bytes).metadata()).format).toBe('jpeg');
  });

  it('turns a rotated JPEG upright (its EXIF orientation applied) before sending it', async () => {
    const rotated = await solid(40, 20).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const sent = await visionImage(rotated, 'jpeg', 'r.jpg', 10);
    const meta = await sharp(sent.bytes).metadata();
    expect([meta.width, meta.height, meta.orientation ?? 1]).toEqual([20, 40, 1]);
  });

  it('refuses an image declaring more pixels than it decodes, without decoding it', async () => {
    const err = await visionImage(declaredPng(20_000, 20_000), 'png', 'bomb.png', 10).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserFacingError);
    expect(err).toMatchObject({ identifier: 'input.attachmentInvalid', context: { param: 'bomb.png' } });
  });

  it('refuses bytes sharp cannot read as an image that cannot be described', async () => {
    const junk = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(64, 7)]);
    const err = await visionImage(junk, 'png', 'junk.png', 10).catch((e: unknown) => e);
    expect(err).toMatchObject({ identifier: 'input.attachmentInvalid', context: { param: 'junk.png' } });
  });

  it('refuses an image whose header reads but whose pixels do not decode, with the message', async () => {
    const png = await solid(3000, 1000).png({ compressionLevel: 0 }).toBuffer();
    const broken = Buffer.concat([png.subarray(0, png.length / 2), Buffer.alloc(1024, 0xff), png.subarray(png.length - 12)]);
    const refusal = await visionImage(broken, 'png', 'broken.png', 10).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(UserFacingError);
    expect((refusal as UserFacingError).identifier).toBe('input.attachmentInvalid');
  });
});
