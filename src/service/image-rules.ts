/**
 * Pre-flight rules for image requests. Pure and exported so the service and the Discord commands can refuse bad
 * input before any quota is charged or any byte reaches the gateway.
 *
 * @see ../../../shared/docs/image-gateway.md §2.2, §2.3 (limits) and gateway-interface.md (custom sizes)
 */
import sharp from 'sharp';
import type { EditRequest, GenerateRequest, ImageFormat, InputImage } from './ports.js';

/** Custom-size bounds, in one place so they can follow the gateway. */
export const SIZE_BOUNDS = {
  /** Both sides must be multiples of this. */
  multiple: 16,
  minSide: 16,
  maxSide: 3840,
  /** Long side to short side, at most. */
  maxRatio: 3,
  /** 3840x2160. */
  maxPixels: 3840 * 2160,
} as const;

/** The sizes every GPT image model accepts; the fallback targets for a rejected custom size. */
export const STANDARD_SIZES = ['1024x1024', '1536x1024', '1024x1536'] as const;
export type StandardSize = (typeof STANDARD_SIZES)[number];

const MAX_PROMPT_LENGTH = 32_000;
export const MAX_IMAGES_PER_REQUEST = 10;
export const MAX_EDIT_IMAGES = 16;
const MAX_EDIT_IMAGE_BYTES = 50 * 1024 * 1024;
const MAX_MASK_BYTES = 4 * 1024 * 1024;

const FORMATS: readonly ImageFormat[] = ['png', 'jpeg', 'webp'];
const QUALITIES = ['auto', 'low', 'medium', 'high'];
const BACKGROUNDS = ['auto', 'opaque', 'transparent'];
const MODERATIONS = ['auto', 'low'];
const FIDELITIES = ['high', 'low'];

/** Bad input, refused before the gateway is called. `allowed` is human text the member can act on. */
export class ImageInputError extends Error {
  override name = 'ImageInputError';
  readonly param: string;
  readonly allowed: string;

  constructor(param: string, allowed: string) {
    super(`${param}: ${allowed}`);
    this.param = param;
    this.allowed = allowed;
  }
}

/** Parses `WIDTHxHEIGHT` (any case of x, or ×) without checking bounds; undefined when it is not that shape. */
export function parseSize(text: string): { width: number; height: number } | undefined {
  const match = /^\s*(\d{1,5})\s*[xX×]\s*(\d{1,5})\s*$/.exec(text);
  if (!match) return undefined;
  return { width: Number(match[1]), height: Number(match[2]) };
}

/** Why a custom size breaks SIZE_BOUNDS, or undefined when it is fine. */
function sizeProblem(width: number, height: number): string | undefined {
  const { multiple, minSide, maxSide, maxRatio, maxPixels } = SIZE_BOUNDS;
  if (width % multiple !== 0 || height % multiple !== 0) return `both sides must be multiples of ${multiple}`;
  if (Math.min(width, height) < minSide || Math.max(width, height) > maxSide) return `each side must be ${minSide}–${maxSide}`;
  if (Math.max(width, height) > maxRatio * Math.min(width, height)) return `the long side may be at most ${maxRatio}× the short side`;
  if (width * height > maxPixels) return `at most ${maxPixels.toLocaleString('en')} pixels (3840x2160)`;
  return undefined;
}

/** True for `auto`, a standard size, or a custom size within SIZE_BOUNDS (size autocomplete uses this). */
export function isValidSizeText(text: string): boolean {
  if (text.trim().toLowerCase() === 'auto') return true;
  const size = parseSize(text);
  return size !== undefined && sizeProblem(size.width, size.height) === undefined;
}

/** The standard size whose aspect ratio is nearest to width:height (compared on a log scale, so 2:1 and 1:2 are symmetric). */
export function nearestStandardSize(width: number, height: number): StandardSize {
  const target = Math.log(width / height);
  let best: StandardSize = '1024x1024';
  let bestDistance = Infinity;
  for (const candidate of STANDARD_SIZES) {
    const [w, h] = candidate.split('x').map(Number) as [number, number];
    const distance = Math.abs(Math.log(w / h) - target);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** True when the size is a custom WIDTHxHEIGHT (neither auto nor standard). */
export function isCustomSize(size: string): boolean {
  return size !== 'auto' && !(STANDARD_SIZES as readonly string[]).includes(size);
}

/** Sniffs png, jpeg or webp from the magic bytes; never from a file name. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  const starts = (offset: number, sig: number[]): boolean => sig.every((b, i) => bytes[offset + i] === b);
  if (starts(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts(0, [0xff, 0xd8, 0xff])) return 'jpeg';
  // RIFF....WEBP
  if (starts(0, [0x52, 0x49, 0x46, 0x46]) && starts(8, [0x57, 0x45, 0x42, 0x50])) return 'webp';
  return undefined;
}

const SIZE_ALLOWED =
  `auto, ${STANDARD_SIZES.join(', ')}, or WIDTHxHEIGHT with both sides multiples of ${SIZE_BOUNDS.multiple}, ` +
  `each ${SIZE_BOUNDS.minSide}–${SIZE_BOUNDS.maxSide}, at most ${SIZE_BOUNDS.maxRatio}:1, and no more pixels than 3840x2160`;

function normaliseSize(size: string): string {
  if (size.trim().toLowerCase() === 'auto') return 'auto';
  const parsed = parseSize(size);
  if (!parsed) throw new ImageInputError('size', SIZE_ALLOWED);
  const problem = sizeProblem(parsed.width, parsed.height);
  if (problem) throw new ImageInputError('size', `${problem}; allowed: ${SIZE_ALLOWED}`);
  return `${parsed.width}x${parsed.height}`;
}

function checkEnum(param: string, value: string | undefined, allowed: readonly string[]): void {
  if (value !== undefined && !allowed.includes(value)) throw new ImageInputError(param, `one of ${allowed.join(', ')}`);
}

function checkInteger(param: string, value: number | undefined, min: number, max: number): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= min && value <= max)) {
    throw new ImageInputError(param, `a whole number from ${min} to ${max}`);
  }
}

function checkPrompt(prompt: string): void {
  // eslint-disable-next-line @typescript-eslint/no-misused-spread -- the limit counts code points on purpose (a surrogate pair is one character), not graphemes
  const length = [...prompt].length;
  if (prompt.trim().length === 0 || length > MAX_PROMPT_LENGTH) {
    throw new ImageInputError('prompt', `1 to ${MAX_PROMPT_LENGTH.toLocaleString('en')} characters`);
  }
}

/**
 * Checks a text-to-image request and returns it normalised (size spelt `WxH`; transparent with no format → png).
 * @throws ImageInputError naming the parameter and what is allowed
 */
export function validateGenerateRequest<T extends GenerateRequest>(req: T): T {
  checkPrompt(req.prompt);
  checkInteger('n', req.n, 1, MAX_IMAGES_PER_REQUEST);
  checkEnum('quality', req.quality, QUALITIES);
  checkEnum('background', req.background, BACKGROUNDS);
  checkEnum('output_format', req.outputFormat, FORMATS);
  checkEnum('moderation', req.moderation, MODERATIONS);
  const out: T = { ...req };
  if (req.size !== undefined) out.size = normaliseSize(req.size);
  if (req.background === 'transparent') {
    if (req.outputFormat === 'jpeg') {
      throw new ImageInputError('background', 'transparent needs png or webp output; jpeg has no transparency');
    }
    // The gateway only makes transparency with a format that can carry it.
    if (req.outputFormat === undefined) out.outputFormat = 'png';
  }
  if (req.outputCompression !== undefined) {
    checkInteger('output_compression', req.outputCompression, 0, 100);
    if (out.outputFormat !== 'jpeg' && out.outputFormat !== 'webp') {
      throw new ImageInputError('output_compression', 'only with jpeg or webp output');
    }
  }
  return out;
}

function checkInputImage(param: string, image: InputImage, maxBytes: number, formats: readonly ImageFormat[]): void {
  const format = sniffImageFormat(image.bytes);
  if (!format || !formats.includes(format)) throw new ImageInputError(param, `a ${formats.join(', ')} image`);
  if (image.bytes.byteLength >= maxBytes) {
    throw new ImageInputError(param, `an image under ${Math.round(maxBytes / 1024 / 1024)} MB`);
  }
}

async function inspect(bytes: Uint8Array): Promise<{ width: number; height: number; hasAlpha: boolean } | undefined> {
  try {
    const meta = await sharp(bytes).metadata();
    return { width: meta.width, height: meta.height, hasAlpha: meta.hasAlpha };
  } catch {
    return undefined;
  }
}

async function checkMask(mask: InputImage, first: InputImage): Promise<void> {
  checkInputImage('mask', mask, MAX_MASK_BYTES, ['png']);
  const [maskInfo, firstInfo] = await Promise.all([inspect(mask.bytes), inspect(first.bytes)]);
  if (!maskInfo) throw new ImageInputError('mask', 'a readable PNG image');
  if (!firstInfo) throw new ImageInputError('image', 'a readable png, jpeg or webp image');
  if (!maskInfo.hasAlpha) throw new ImageInputError('mask', 'a PNG with an alpha channel (transparent where the image should change)');
  if (maskInfo.width !== firstInfo.width || maskInfo.height !== firstInfo.height) {
    throw new ImageInputError('mask', `the same dimensions as the first image (${firstInfo.width}x${firstInfo.height})`);
  }
}

/**
 * Checks an image-to-image request: everything validateGenerateRequest checks, plus 1–16 images (png, jpeg or webp
 * by magic bytes, each under 50 MB) and an optional mask (PNG with alpha, under 4 MB, same size as the first image).
 * @throws ImageInputError naming the parameter and what is allowed
 */
export async function validateEditRequest(req: EditRequest): Promise<EditRequest> {
  const out = validateGenerateRequest(req);
  checkEnum('input_fidelity', req.inputFidelity, FIDELITIES);
  if (req.images.length < 1 || req.images.length > MAX_EDIT_IMAGES) {
    throw new ImageInputError('image', `1 to ${MAX_EDIT_IMAGES} images`);
  }
  for (const image of req.images) checkInputImage('image', image, MAX_EDIT_IMAGE_BYTES, FORMATS);
  const first = req.images[0];
  if (req.mask && first) await checkMask(req.mask, first);
  return out;
}
