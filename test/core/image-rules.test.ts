import { describe, expect, it } from 'vitest';
import { ImageInputError, sniffImageFormat, validateEditRequest, validateGenerateRequest } from '../../src/core/image-rules.js';
import { nearestStandardSize, readSize, SIZE_BOUNDS, SizeChoiceSchema, sizeProblem, sizeText, STANDARD_SIZES } from '../../src/core/sizes.js';

/** `auto`, or a size read from text within SIZE_BOUNDS. */
function isValidSizeText(text: string): boolean {
  const size = readSize(text);
  return size === 'auto' || (size !== undefined && sizeProblem(size.width, size.height) === undefined);
}
import type { EditRequest, GenerateRequest } from '../../src/core/images.js';
import { makeImage } from '../gateway/fixtures.js';
import { english, inEnglish } from '../support/phrases.js';

function refusal(fn: () => unknown): ImageInputError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ImageInputError) return err;
    throw err;
  }
  throw new Error('expected an ImageInputError');
}

describe('sizes', () => {
  it.each([
    ['auto', true],
    ['1024x1024', true],
    ['1536x1024', true],
    ['1024x1536', true],
    ['3840x2160', true],
    ['2160x3840', true],
    ['16x16', true],
    ['48x16', true],
    ['64x16', false], // 4:1
    ['1000x1000', false], // not multiples of 16
    ['3856x2160', false], // side above 3840
    ['3840x2176', false], // more pixels than 3840x2160
    ['0x0', false],
    ['big', false],
    ['1024 x 1024', true],
    ['1024X1024', true],
  ])('GIVEN %s THEN valid is %s', (text, valid) => {
    expect(isValidSizeText(text)).toBe(valid);
  });

  it('parses WIDTHxHEIGHT and nothing else', () => {
    expect(readSize('1536x864')).toEqual({ width: 1536, height: 864 });
    expect(readSize(' AUTO ')).toBe('auto');
    expect(readSize('12x')).toBeUndefined();
    expect(SizeChoiceSchema.parse({ width: 1536, height: 864 })).toEqual({ width: 1536, height: 864 });
    expect(SizeChoiceSchema.safeParse({ width: '1536', height: 864 }).success).toBe(false);
    expect(sizeText({ width: 1536, height: 864 })).toBe('1536x864');
  });

  it.each([
    [1024, 1024, '1024x1024'],
    [1920, 1088, '1536x1024'],
    [2048, 1024, '1536x1024'],
    [864, 1536, '1024x1536'],
    [1100, 1000, '1024x1024'],
  ])('GIVEN %ix%i THEN the nearest standard size is %s', (w, h, size) => {
    expect(sizeText(nearestStandardSize({ width: w, height: h }))).toBe(size);
    expect(STANDARD_SIZES.map(sizeText)).toContain(size);
  });

  it('keeps the bounds in one object', () => {
    expect(SIZE_BOUNDS).toEqual({ multiple: 16, minSide: 16, maxSide: 3840, maxRatio: 3, maxPixels: 3840 * 2160 });
  });
});

describe('sniffImageFormat', () => {
  it('recognises png, jpeg, webp, gif and svg by their bytes, not their names', async () => {
    expect(sniffImageFormat(await makeImage('png'))).toBe('png');
    expect(sniffImageFormat(await makeImage('jpeg'))).toBe('jpeg');
    expect(sniffImageFormat(await makeImage('webp'))).toBe('webp');
    expect(sniffImageFormat(Buffer.from('GIF89a\x01\x00'))).toBe('gif');
    expect(sniffImageFormat(Buffer.from('GIF87a'))).toBe('gif');
    expect(sniffImageFormat(Buffer.from('GIF88a'))).toBeUndefined();
    expect(sniffImageFormat(new Uint8Array())).toBeUndefined();
  });

  it.each([
    ['a bare root', '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>'],
    ['a BOM, an XML declaration, a comment and a doctype', '\uFEFF<?xml version="1.0"?>\n<!-- made by a model -->\n<!DOCTYPE svg>\n<svg>'],
  ])('recognises an SVG document with %s', (_name, text) => {
    expect(sniffImageFormat(Buffer.from(text))).toBe('svg');
  });

  it.each([
    ['HTML', '<html><body><svg></svg></body></html>'],
    ['text mentioning svg', 'an <svgish> thing'],
  ])('does not take %s for an SVG', (_name, text) => {
    expect(sniffImageFormat(Buffer.from(text))).toBeUndefined();
  });
});

describe('validateGenerateRequest', () => {
  const base: GenerateRequest = { prompt: 'a lighthouse' };

  it('returns the request normalised', () => {
    expect(validateGenerateRequest({ ...base, size: { width: 1536, height: 864 } })).toEqual({ ...base, size: { width: 1536, height: 864 } });
    expect(validateGenerateRequest({ ...base, background: 'transparent' })).toEqual({ ...base, background: 'transparent', outputFormat: 'png' });
    expect(validateGenerateRequest({ ...base, background: 'transparent', outputFormat: 'webp', outputCompression: 50 }).outputFormat).toBe('webp');
  });

  it.each<[string, GenerateRequest, string]>([
    ['an empty prompt', { prompt: '   ' }, 'prompt'],
    ['a prompt over 32000 characters', { prompt: 'x'.repeat(32_001) }, 'prompt'],
    ['n of 0', { ...base, n: 0 }, 'n'],
    ['n of 11', { ...base, n: 11 }, 'n'],
    ['a fractional n', { ...base, n: 1.5 }, 'n'],
    ['a bad size', { ...base, size: { width: 1000, height: 1000 } }, 'size'],
    ['compression above 100', { ...base, outputFormat: 'jpeg', outputCompression: 101 }, 'output_compression'],
    ['compression with png', { ...base, outputFormat: 'png', outputCompression: 50 }, 'output_compression'],
    ['compression without a format', { ...base, outputCompression: 50 }, 'output_compression'],
    ['transparent jpeg', { ...base, background: 'transparent', outputFormat: 'jpeg' }, 'background'],
  ])('refuses %s', (_name, req, param) => {
    const err = refusal(() => validateGenerateRequest(req));
    expect(err.param).toBe(param);
    expect(english(err.allowed)?.length).toBeGreaterThan(5);
  });

  it.each<[string, GenerateRequest, string, string]>([
    ['an unknown quality', { ...base, quality: 'ultra' as 'high' }, 'quality', 'one of auto, low, medium, high, xhigh, max, standard, hd'],
    ['a bmp', { ...base, outputFormat: 'bmp' as 'png' }, 'output_format', 'one of png, jpeg, webp, gif, svg'],
    ['n of 11', { ...base, n: 11 }, 'n', 'a whole number from 1 to 10'],
    ['compression of 101', { ...base, outputFormat: 'jpeg', outputCompression: 101 }, 'output_compression', 'a whole number from 0 to 100'],
    ['a blank prompt', { prompt: ' ' }, 'prompt', '1 to 32,000 characters'],
  ])('words what is allowed when it refuses %s', (_name, req, param, allowed) => {
    expect(inEnglish(refusal(() => validateGenerateRequest(req)))).toMatchObject({ param, allowed });
  });

  it('trims the prompt and reads the size where it is still text (a stored record of an earlier version)', () => {
    const stored = { prompt: '  a lighthouse \n', size: ' AUTO ' } as unknown as GenerateRequest;
    expect(validateGenerateRequest(stored)).toEqual({ prompt: 'a lighthouse', size: 'auto' });
  });

  it('accepts a prompt of exactly 32000 characters, counted as characters', () => {
    expect(validateGenerateRequest({ prompt: '😀'.repeat(32_000) }).prompt).toHaveLength(64_000);
  });

  it('explains why transparent jpeg is refused', () => {
    expect(english(refusal(() => validateGenerateRequest({ ...base, background: 'transparent', outputFormat: 'jpeg' })).allowed)).toMatch(/png or webp/);
  });
});

describe('validateEditRequest', () => {
  async function editWith(overrides: Partial<EditRequest>): Promise<EditRequest> {
    return { prompt: 'make it blue', images: [{ bytes: await makeImage('png', 64, 48) }], ...overrides };
  }

  it('accepts up to 16 png, jpeg and webp images and a png mask', async () => {
    const images = await Promise.all(['png', 'jpeg', 'webp'].map(async (f) => ({ bytes: await makeImage(f as 'png', 64, 48) })));
    const mask = { bytes: await makeImage('png', 64, 48, true) };
    expect(validateEditRequest(await editWith({ images, mask }))).toMatchObject({ prompt: 'make it blue' });
    expect(validateEditRequest(await editWith({ images: Array.from({ length: 16 }, () => images[0]!) }))).toBeDefined();
  });

  it('judges images by their bytes, not their names', async () => {
    const req = await editWith({ images: [{ bytes: Buffer.from('GIF89a....'), filename: 'cat.png' }] });
    const err = refusal(() => validateEditRequest(req));
    expect(err.param).toBe('image');
  });

  it.each<[string, () => Promise<Partial<EditRequest>>, string]>([
    ['no images', async () => ({ images: [] }), 'image'],
    [
      '17 images',
      async () => ({ images: Array.from({ length: 17 }, () => ({ bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) })) }),
      'image',
    ],
    ['an image of 50 MB', async () => ({ images: [{ bytes: Buffer.concat([await makeImage('png'), Buffer.alloc(50 * 1024 * 1024)]) }] }), 'image'],
    ['a jpeg mask', async () => ({ mask: { bytes: await makeImage('jpeg', 64, 48) } }), 'mask'],
    ['a mask of 4 MB', async () => ({ mask: { bytes: Buffer.concat([await makeImage('png', 64, 48, true), Buffer.alloc(4 * 1024 * 1024)]) } }), 'mask'],
    ['a bad input_fidelity', async () => ({ inputFidelity: 'max' as 'high' }), 'input_fidelity'],
  ])('refuses %s', async (_name, make, param) => {
    const req = await editWith(await make());
    const err = refusal(() => validateEditRequest(req));
    expect(err.param).toBe(param);
  });

  it("leaves the mask's fit to mask-check.ts (it reads no pixels): a png mask without alpha, of other dimensions, passes here", async () => {
    expect(validateEditRequest(await editWith({ mask: { bytes: await makeImage('png', 32, 32) } })).mask).toBeDefined();
  });
});
