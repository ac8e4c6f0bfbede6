/**
 * Pre-flight rules for image requests: the request schemas of image-request.ts, plus custom sizes (sizes.ts), the pairings
 * of fields and the input images' formats and sizes, with reasons a member can act on. The service refuses bad
 * input with them before any quota is charged or any byte reaches the gateway. Pure (no sharp, no I/O), so the
 * gateway may use the size helpers (its size recovery) and sniffImageFormat too; the one rule that reads pixels'
 * headers, the mask's fit, is mask-check.ts.
 *
 * @see ../../../shared/docs/image-gateway.md §2.2, §2.3 (limits) and gateway-interface.md (custom sizes)
 */
import type { z } from 'zod';
import {
  EditFields,
  GenerateRequest,
  IMAGE_BACKGROUNDS,
  IMAGE_FORMATS,
  IMAGE_MODERATIONS,
  IMAGE_COMPLEXITIES,
  ASPECT_RATIOS,
  RESOLUTIONS,
  IMAGE_QUALITIES,
  IMAGE_STYLES,
  INPUT_FIDELITIES,
  INPUT_IMAGE_FORMATS,
  MAX_EDIT_IMAGE_BYTES,
  MAX_EDIT_IMAGES,
  MAX_IMAGES_PER_REQUEST,
  MAX_MASK_BYTES,
  MAX_MODEL_NAME_LENGTH,
  MAX_SEED,
  MAX_PROMPT_LENGTH,
  OUTPUT_COMPRESSION,
  WIRE_NAMES,
} from './image-request.js';
import { bytesPhrase, phrase, phraseForLog, type Phrase } from './phrase.js';
import type { EditRequest, ImageFormat, InputImage } from './images.js';
import { SIZE_BOUNDS, type SizeChoice, sizeProblem, sizeText, STANDARD_SIZES } from './sizes.js';

/**
 * Bad input, refused before the gateway is called. `param` is the parameter's name on the gateway's wire
 * (image-request.ts WIRE_NAMES); `allowed` is what the member can do instead, as a phrase (phrase.ts) each member
 * reads in their language. The message, for operators, names the phrases.
 */
export class ImageInputError extends Error {
  override name = 'ImageInputError';
  readonly param: string;
  readonly allowed: Phrase;
  /** Why, when it is not the general rule: the model's own (profile-rules.ts), or what is wrong with a size. */
  readonly detail: Phrase | undefined;

  constructor(param: string, allowed: Phrase, detail?: Phrase) {
    super(`${param}: ${detail === undefined ? '' : `${phraseForLog(detail)}; `}${phraseForLog(allowed)}`);
    this.param = param;
    this.allowed = allowed;
    this.detail = detail;
  }
}

/**
 * The most pixels (width x height, as an image's header declares them) the bot decodes or passes on
 * (MAX_DECODE_PIXELS): above a 48-megapixel phone photo, far below sharp's 268-megapixel default, so a PNG that
 * declares 20000x20000 is refused from its header, never decoded.
 */
export const DEFAULT_MAX_DECODE_PIXELS = 50_000_000;

/** The declared size passes the cap. */
export function overPixelCap(width: number, height: number, maxPixels: number): boolean {
  return width * height > maxPixels;
}

/** How far into a text an SVG's root element may start (an XML declaration, a doctype or comments before it). */
const SVG_SNIFF_BYTES = 1_024;

/** Sniffs png, jpeg, webp, gif or svg from the content; never from a file name. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  const starts = (offset: number, sig: number[]): boolean => sig.every((b, i) => bytes[offset + i] === b);
  if (starts(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts(0, [0xff, 0xd8, 0xff])) return 'jpeg';
  // RIFF....WEBP
  if (starts(0, [0x52, 0x49, 0x46, 0x46]) && starts(8, [0x57, 0x45, 0x42, 0x50])) return 'webp';
  // GIF87a, GIF89a
  if (starts(0, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'gif';
  if (looksLikeSvg(bytes)) return 'svg';
  return undefined;
}

/** Text whose first element is `<svg` (after an optional BOM, XML declaration, doctype and comments). */
function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, SVG_SNIFF_BYTES)).replace(/^\uFEFF/, '');
  return /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(head);
}

const SIZE_ALLOWED = phrase('allowed.size', {
  sizes: ['auto', ...STANDARD_SIZES.map(sizeText)],
  multiple: String(SIZE_BOUNDS.multiple),
  minSide: String(SIZE_BOUNDS.minSide),
  maxSide: String(SIZE_BOUNDS.maxSide),
  ratio: String(SIZE_BOUNDS.maxRatio),
  largest: '3840x2160',
});

function checkSize(size: SizeChoice): void {
  const problem = size === 'auto' ? undefined : sizeProblem(size.width, size.height);
  if (problem) throw new ImageInputError(WIRE_NAMES.size, SIZE_ALLOWED, problem);
}

const oneOf = (values: readonly string[]): Phrase => phrase('allowed.oneOf', { values });
/** A whole number from `min` to `max` (also the gateway's words for its own call options). */
export const wholeNumber = (min: number, max: number): Phrase => phrase('allowed.wholeNumber', { min: String(min), max: String(max) });

/** What each schema field allows, as a phrase. */
const ALLOWED: Record<keyof GenerateRequest | keyof EditFields, Phrase> = {
  prompt: phrase('allowed.promptLength', { max: MAX_PROMPT_LENGTH }),
  model: phrase('allowed.modelName', { max: String(MAX_MODEL_NAME_LENGTH) }),
  size: SIZE_ALLOWED,
  quality: oneOf(IMAGE_QUALITIES),
  background: oneOf(IMAGE_BACKGROUNDS),
  outputFormat: oneOf(IMAGE_FORMATS),
  outputCompression: wholeNumber(OUTPUT_COMPRESSION.min, OUTPUT_COMPRESSION.max),
  n: wholeNumber(1, MAX_IMAGES_PER_REQUEST),
  moderation: oneOf(IMAGE_MODERATIONS),
  style: oneOf(IMAGE_STYLES),
  complexity: oneOf(IMAGE_COMPLEXITIES),
  seed: wholeNumber(0, MAX_SEED),
  ratio: oneOf(ASPECT_RATIOS),
  resolution: oneOf(RESOLUTIONS),
  inputFidelity: oneOf(INPUT_FIDELITIES),
};

const isSchemaField = (key: PropertyKey | undefined): key is keyof typeof ALLOWED => typeof key === 'string' && Object.hasOwn(ALLOWED, key);

/** The schema's output for `value`, or an ImageInputError for the first field it refuses. */
function parseFields<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const field = parsed.error.issues[0]?.path[0];
  if (!isSchemaField(field)) throw new ImageInputError('request', phrase('allowed.request'));
  throw new ImageInputError(WIRE_NAMES[field], ALLOWED[field]);
}

/**
 * Checks a text-to-image request and returns it normalised (prompt trimmed, size parsed; transparent with no
 * format → png).
 * @throws ImageInputError naming the parameter and what is allowed
 */
export function validateGenerateRequest<T extends GenerateRequest>(req: T): T {
  const out: T = { ...req, ...parseFields(GenerateRequest, req) };
  if (out.size !== undefined) checkSize(out.size);
  if (out.background === 'transparent') {
    if (out.outputFormat === 'jpeg') {
      throw new ImageInputError(WIRE_NAMES.background, phrase('allowed.transparentFormat'));
    }
    // The gateway only makes transparency with a format that can carry it.
    out.outputFormat ??= 'png';
  }
  if (out.outputCompression !== undefined && out.outputFormat !== 'jpeg' && out.outputFormat !== 'webp') {
    throw new ImageInputError(WIRE_NAMES.outputCompression, phrase('allowed.compressionFormat'));
  }
  return out;
}

function checkInputImage(param: string, image: InputImage, maxBytes: number, formats: readonly ImageFormat[]): void {
  const format = sniffImageFormat(image.bytes);
  if (!format || !formats.includes(format)) throw new ImageInputError(param, phrase('allowed.imageFormat', { formats }));
  if (image.bytes.byteLength >= maxBytes) throw new ImageInputError(param, phrase('allowed.imageUnder', { size: bytesPhrase(maxBytes) }));
}

/**
 * Checks an image-to-image request: everything validateGenerateRequest checks, plus the edit fields, 1–16 images
 * (png, jpeg or webp by magic bytes, each under 50 MB) and an optional mask (a PNG under 4 MB). Whether the mask
 * fits the first image (alpha, same dimensions) needs their headers read: mask-check.ts.
 * @throws ImageInputError naming the parameter and what is allowed
 */
export function validateEditRequest(req: EditRequest): EditRequest {
  const out: EditRequest = { ...validateGenerateRequest(req), ...parseFields(EditFields, req) };
  if (req.images.length < 1 || req.images.length > MAX_EDIT_IMAGES) {
    throw new ImageInputError(WIRE_NAMES.images, phrase('allowed.imageCount', { max: MAX_EDIT_IMAGES }));
  }
  for (const image of req.images) checkInputImage(WIRE_NAMES.images, image, MAX_EDIT_IMAGE_BYTES, INPUT_IMAGE_FORMATS);
  if (req.mask) checkInputImage(WIRE_NAMES.mask, req.mask, MAX_MASK_BYTES, ['png']);
  return out;
}

/** A reference image as Discord declares it in the interaction, before anything is fetched. */
export interface DeclaredImage {
  /** Absent for an image Discord gives no size for (an embed's, a media gallery's): see {@link unsizedImageBytes}. */
  size?: number | undefined;
  contentType?: string | null | undefined;
}

const DECLARED_TYPES: Readonly<Record<string, ImageFormat>> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/jpg': 'jpeg', 'image/webp': 'webp' };

/**
 * What an image Discord declares no size for (an embed's or a media gallery's) is read up to, and counts for in the
 * memory budget: ATTACHMENT_MAX_BYTES (`maxBytes`), but no more than a sixteenth of what one job's references may
 * weigh together (`maxTotalBytes`), so that sixteen of them always fit the budget while each still holds a whole
 * image (8 MiB with the defaults). A larger one is cut off at that and refused.
 */
export function unsizedImageBytes(maxBytes: number, maxTotalBytes: number): number {
  return Math.min(maxBytes, Math.floor(maxTotalBytes / MAX_EDIT_IMAGES));
}

/**
 * Checks what Discord declares about the reference images (count, size, content type) before any of them is
 * downloaded, so a request that would be refused fetches nothing. The bytes are checked again after the download
 * (validateEditRequest), since a declaration can lie. `maxBytes` is the operator's ATTACHMENT_MAX_BYTES;
 * `maxTotalBytes`, what one job's references may weigh together in the memory budget (memory-budget.ts), where an
 * image of no declared size counts as {@link unsizedImageBytes}.
 * @throws ImageInputError naming the parameter and what is allowed
 */
export function checkDeclaredImages(
  images: readonly DeclaredImage[],
  mask: DeclaredImage | undefined,
  maxBytes: number,
  maxTotalBytes = Number.POSITIVE_INFINITY,
): void {
  if (images.length < 1 || images.length > MAX_EDIT_IMAGES)
    throw new ImageInputError(WIRE_NAMES.images, phrase('allowed.imageCount', { max: MAX_EDIT_IMAGES }));
  for (const image of images) checkDeclared(WIRE_NAMES.images, image, Math.min(maxBytes + 1, MAX_EDIT_IMAGE_BYTES), INPUT_IMAGE_FORMATS);
  if (mask) checkDeclared(WIRE_NAMES.mask, mask, Math.min(maxBytes + 1, MAX_MASK_BYTES), ['png']);
  if (declaredBytes(images, mask, unsizedImageBytes(maxBytes, maxTotalBytes)) > maxTotalBytes)
    throw new ImageInputError(WIRE_NAMES.images, phrase('allowed.imagesTogether', { size: bytesPhrase(maxTotalBytes) }));
}

/** What the images (and mask) weigh together, as declared; each of no declared size as `unsizedBytes`. */
export function declaredBytes(images: readonly DeclaredImage[], mask: DeclaredImage | undefined, unsizedBytes: number): number {
  const weight = (image: DeclaredImage): number => image.size ?? unsizedBytes;
  return images.reduce((total, image) => total + weight(image), mask ? weight(mask) : 0);
}

function checkDeclared(param: string, image: DeclaredImage, limit: number, formats: readonly ImageFormat[]): void {
  const declared = image.contentType ? DECLARED_TYPES[image.contentType.split(';')[0]?.trim().toLowerCase() ?? ''] : undefined;
  if (image.contentType && (declared === undefined || !formats.includes(declared)))
    throw new ImageInputError(param, phrase('allowed.imageFormat', { formats }));
  if (image.size !== undefined && image.size >= limit) throw new ImageInputError(param, phrase('allowed.imageUnder', { size: bytesPhrase(limit) }));
}
