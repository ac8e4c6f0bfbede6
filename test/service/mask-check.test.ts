import { describe, expect, it } from 'vitest';
import { ImageInputError } from '../../src/core/image-rules.js';
import { checkMask, checkSquare } from '../../src/service/mask-check.js';
import type { EditRequest, InputImage } from '../../src/core/images.js';
import { makeImage } from '../gateway/fixtures.js';
import { english } from '../support/phrases.js';

async function edit(mask: InputImage | undefined, first?: InputImage): Promise<EditRequest> {
  return { prompt: 'make it blue', images: [first ?? { bytes: await makeImage('png', 64, 48) }], mask };
}

async function refusal(promise: Promise<unknown>): Promise<ImageInputError> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (err instanceof ImageInputError) return err;
  throw new Error(`expected an ImageInputError, got ${String(err)}`);
}

describe('checkMask', () => {
  it("accepts an edit without a mask, and a mask with alpha of the first image's size", async () => {
    await expect(checkMask(await edit(undefined))).resolves.toBeUndefined();
    await expect(checkMask(await edit({ bytes: await makeImage('png', 64, 48, true) }))).resolves.toBeUndefined();
    await expect(checkMask(await edit({ bytes: await makeImage('png', 64, 48, true) }, { bytes: await makeImage('webp', 64, 48) }))).resolves.toBeUndefined();
  });

  it.each<[string, () => Promise<EditRequest>, string, RegExp]>([
    ['a mask without alpha', async () => edit({ bytes: await makeImage('png', 64, 48) }), 'mask', /alpha channel/],
    ['a mask of other dimensions', async () => edit({ bytes: await makeImage('png', 32, 32, true) }), 'mask', /same dimensions as the first image \(64x48\)/],
    ['an unreadable mask', async () => edit({ bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]) }), 'mask', /readable PNG/],
    [
      'an unreadable first image',
      async () => edit({ bytes: await makeImage('png', 64, 48, true) }, { bytes: Buffer.from([0xff, 0xd8, 0xff, 0, 1, 2]) }),
      'image',
      /readable png, jpeg or webp/,
    ],
  ])('refuses %s', async (_name, make, param, allowed) => {
    const err = await refusal(checkMask(await make()));
    expect(err.param).toBe(param);
    expect(english(err.allowed)).toMatch(allowed);
  });
});

describe('checkSquare', () => {
  it('accepts a square first image, and an edit whose image cannot be read (checkMask and the gateway say so)', async () => {
    await expect(checkSquare(await edit(undefined, { bytes: await makeImage('png', 32, 32) }), 'dall-e-2')).resolves.toBeUndefined();
    await expect(checkSquare(await edit(undefined, { bytes: Buffer.from([1, 2, 3]) }), 'dall-e-2')).resolves.toBeUndefined();
  });

  it('refuses a first image that is not square, naming the model that needs it', async () => {
    const err = await refusal(checkSquare(await edit(undefined), 'dall-e-2'));
    expect(err.param).toBe('image');
    expect(english(err.allowed)).toMatch(/square/i);
  });
});
