/**
 * Sizes: the custom-size bounds, the standard sizes, and the one reader of size text (`WIDTHxHEIGHT` or `auto`,
 * {@link SizeChoiceSchema}), with the reasons a size is refused, as phrases members read in their language. Text
 * is read once, where it enters (an option, a modal, a settings or profile record, a model catalogue); from there
 * a size travels parsed, and is written back as text ({@link sizeText}) only for the wire and for members.
 */
import { z } from 'zod';
import { phrase, type Phrase } from './phrase.js';

/** A size in pixels, parsed. */
export interface Size {
  width: number;
  height: number;
}

/** What a request asks for: the model's own choice, or a size. */
export type SizeChoice = 'auto' | Size;

/** `WIDTHxHEIGHT`, or `auto`: how sizes are written for the gateway and for members. */
export function sizeText(size: SizeChoice): string {
  return size === 'auto' ? 'auto' : `${size.width}x${size.height}`;
}

/** True when both are the same size (or both auto). */
export function sameSize(a: SizeChoice, b: SizeChoice): boolean {
  return a === 'auto' || b === 'auto' ? a === b : a.width === b.width && a.height === b.height;
}

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
export const STANDARD_SIZES: readonly Size[] = [
  { width: 1024, height: 1024 },
  { width: 1536, height: 1024 },
  { width: 1024, height: 1536 },
];

/** Parses `WIDTHxHEIGHT` (any case of x, or ×) without checking bounds; undefined when it is not that shape. */
function parseSize(text: string): Size | undefined {
  const match = /^\s*(\d{1,5})\s*[xX×]\s*(\d{1,5})\s*$/.exec(text);
  if (!match) return undefined;
  return { width: Number(match[1]), height: Number(match[2]) };
}

const Side = z.number().int().min(1).max(99_999);
const ParsedSize = z.strictObject({ width: Side, height: Side });

/**
 * The one reader of sizes: `auto` (any case), `WIDTHxHEIGHT` text, or an already parsed size (a record written by
 * this version); refuses anything else with the `detail.size.notSize` phrase. Bounds are the rules' to check.
 */
export const SizeChoiceSchema: z.ZodType<SizeChoice, string | Size> = z
  .custom<string | Size>((value) => typeof value === 'string' || ParsedSize.safeParse(value).success, {
    message: 'detail.size.notSize',
  })
  .transform((value, ctx): SizeChoice => {
    if (typeof value !== 'string') return value;
    if (value.trim().toLowerCase() === 'auto') return 'auto';
    const size = parseSize(value);
    if (size) return size;
    ctx.addIssue({ code: 'custom', message: 'detail.size.notSize' });
    return z.NEVER;
  });

/** A size (not `auto`), read as {@link SizeChoiceSchema} reads it. */
export const SizeSchema: z.ZodType<Size, string | Size> = SizeChoiceSchema.refine((size) => size !== 'auto', { message: 'detail.size.notSize' }).transform(
  (size) => size as Size,
);

/** `text` read as a size choice; undefined when it is neither `auto` nor `WIDTHxHEIGHT`. */
export function readSize(text: string): SizeChoice | undefined {
  const read = SizeChoiceSchema.safeParse(text);
  return read.success ? read.data : undefined;
}

/** Bounds of custom sizes (SIZE_BOUNDS, or a model profile's rule). */
export interface SizeBounds {
  multiple: number;
  minSide: number;
  maxSide: number;
  maxRatio: number;
  maxPixels: number;
}

/** Why a custom size breaks `bounds` (a phrase members read in their language), or undefined when it is fine. */
export function sizeProblem(width: number, height: number, bounds: SizeBounds = SIZE_BOUNDS): Phrase | undefined {
  const { multiple, minSide, maxSide, maxRatio, maxPixels } = bounds;
  if (width % multiple !== 0 || height % multiple !== 0) return phrase('detail.size.multiple', { multiple: String(multiple) });
  if (Math.min(width, height) < minSide || Math.max(width, height) > maxSide)
    return phrase('detail.size.sides', { minSide: String(minSide), maxSide: String(maxSide) });
  if (Math.max(width, height) > maxRatio * Math.min(width, height)) return phrase('detail.size.ratio', { ratio: String(maxRatio) });
  if (width * height > maxPixels)
    return phrase('detail.size.pixels', { pixels: maxPixels, hasExample: maxPixels === 3840 * 2160 ? 'yes' : 'no', example: '3840x2160' });
  return undefined;
}

/** The standard size whose aspect ratio is nearest to the size's (compared on a log scale, so 2:1 and 1:2 are symmetric). */
export function nearestStandardSize(size: Size): Size {
  const target = Math.log(size.width / size.height);
  const distance = (candidate: Size) => Math.abs(Math.log(candidate.width / candidate.height) - target);
  return STANDARD_SIZES.reduce((best, candidate) => (distance(candidate) < distance(best) ? candidate : best));
}

/** True when the size is a custom WIDTHxHEIGHT (neither auto nor standard). */
export function isCustomSize(size: SizeChoice): size is Size {
  return size !== 'auto' && !STANDARD_SIZES.some((standard) => sameSize(standard, size));
}
