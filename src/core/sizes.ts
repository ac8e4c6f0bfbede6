/**
 * Sizes: the custom-size bounds, the standard sizes, and reading `WIDTHxHEIGHT` (parseSize) with the reasons a
 * size is refused, as phrases members read in their language.
 */
import { phrase, type Phrase } from './phrase.js';

/** A size in pixels, parsed. */
export interface Size {
  width: number;
  height: number;
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
export const STANDARD_SIZES = ['1024x1024', '1536x1024', '1024x1536'] as const;

export type StandardSize = (typeof STANDARD_SIZES)[number];

/** Parses `WIDTHxHEIGHT` (any case of x, or ×) without checking bounds; undefined when it is not that shape. */
export function parseSize(text: string): Size | undefined {
  const match = /^\s*(\d{1,5})\s*[xX×]\s*(\d{1,5})\s*$/.exec(text);
  if (!match) return undefined;
  return { width: Number(match[1]), height: Number(match[2]) };
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
