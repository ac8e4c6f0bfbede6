/**
 * Decodes the bot makes of members' images and its own results (issue 28): the header is read first, and an image
 * declaring more than MAX_DECODE_PIXELS is refused with its size, before sharp decodes a pixel.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { UserFacingError } from '../../src/errors.js';
import { checkedHeader } from '../../src/service/decode-guard.js';
import { toUserFacingError } from '../../src/service/error-mapping.js';
import { GatewayResponseError } from '../../src/gateway/errors.js';
import { BUILT_IN_PROFILES } from '../../src/core/model-profiles.js';
import { outpaint } from '../../src/service/outpaint.js';
import { declaredPng } from '../emulators/gateway/png-bomb.js';
import { english } from '../support/phrases.js';

const CAP = 50_000_000;

describe('checkedHeader', () => {
  it('refuses a PNG declaring 20000x20000, naming the attachment, its size and the cap', async () => {
    const err = await checkedHeader(declaredPng(20_000, 20_000), CAP, 'bomb.png').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserFacingError);
    const { identifier, context } = err as UserFacingError;
    expect(identifier).toBe('input.attachmentInvalid');
    expect(context.param).toBe('bomb.png');
    expect(english(context.detail)).toBe('it is 20000×20000 pixels, more than the 50 megapixels I can open');
  });

  it('gives the header of an image within the cap, and nothing for bytes that are no image', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 4, background: '#1234' } })
      .png()
      .toBuffer();
    await expect(checkedHeader(png, CAP)).resolves.toEqual({ width: 40, height: 30, hasAlpha: true });
    await expect(checkedHeader(Buffer.from('nope'), CAP)).resolves.toBeUndefined();
  });
});

describe('outpaint', () => {
  it('refuses an image declaring more than the cap before building a canvas from it', async () => {
    const { profile } = BUILT_IN_PROFILES['gpt-image-1'];
    await expect(outpaint(declaredPng(20_000, 20_000), { kind: 'zoom', factor: 2 }, profile, CAP)).rejects.toMatchObject({
      identifier: 'input.attachmentInvalid',
    });
  });
});

describe('a gateway answer refused for its size', () => {
  it('reads as a message saying how large it was, and that nothing was charged', () => {
    const err = new GatewayResponseError('too large', {
      category: 'gateway_failure',
      code: 'image_too_large',
      pixels: { width: 20_000, height: 20_000, max: CAP },
    });
    const mapped = toUserFacingError(err, () => []) as UserFacingError;
    expect(mapped.identifier).toBe('gateway.imageTooLarge');
    expect(english(mapped.context.detail)).toBe('it is 20000×20000 pixels, more than the 50 megapixels I can open');
  });
});
