/**
 * Ratios and resolutions instead of pixel sizes: `ratio:16:9 resolution:2K` turned, per model profile, into a size
 * the model accepts. A model with custom sizes gets the ratio at the resolution's long side (1K 1024, 2K 2048, 4K
 * 4096 px), within its bounds (sides multiples of its step, its pixel cap and longest side), the rounding that keeps
 * the ratio closest; a model with listed sizes gets the listed size nearest the ratio (within {@link RATIO_TOLERANCE};
 * otherwise it cannot make that ratio), the one nearest the resolution among equals. A model whose dialect takes
 * ratios itself (OpenRouter's `aspect_ratio`, `resolution`) gets them as they are, with a nominal size for the
 * estimates. Pure.
 */
import { ASPECT_RATIOS, type GenerateRequest, RESOLUTIONS, WIRE_NAMES } from './image-request.js';
import { ImageInputError } from './image-rules.js';
import { literal, phrase } from './phrase.js';
import type { ModelProfile } from './model-profiles.js';
import { type Size, sizeProblem } from './sizes.js';

export type AspectRatio = (typeof ASPECT_RATIOS)[number];
export type Resolution = (typeof RESOLUTIONS)[number];

/** The long side each resolution asks for, in pixels. */
const LONG_SIDE: Readonly<Record<Resolution, number>> = { '1K': 1024, '2K': 2048, '4K': 4096 };
/** A listed size whose ratio is off by more than this (relative) does not make the ratio. */
export const RATIO_TOLERANCE = 0.03;
/** How many steps below the ideal width are tried for the rounding that keeps the ratio closest. */
const ROUNDING_STEPS = 24;

/** True for one of {@link ASPECT_RATIOS}. */
export const isAspectRatio = (text: string | undefined): text is AspectRatio => (ASPECT_RATIOS as readonly (string | undefined)[]).includes(text);

/** `16:9` → 16/9. */
export function ratioValue(ratio: AspectRatio): number {
  const [w, h] = ratio.split(':').map(Number) as [number, number];
  return w / h;
}

/** What a ratio and resolution become for one model. */
export interface RatioPlan {
  size: Size;
  /** The size is above the model's experimental bound. */
  experimental: boolean;
  /** The dialect takes the ratio (and resolution) itself: they are sent, the size only estimates. */
  native: boolean;
}

const logDistance = (a: number, b: number): number => Math.abs(Math.log(a / b));

/** The ratio at the resolution's long side, before any model's bounds. */
function idealSize(ratio: AspectRatio, resolution: Resolution): Size {
  const r = ratioValue(ratio);
  const long = LONG_SIDE[resolution];
  return r >= 1 ? { width: long, height: long / r } : { width: long * r, height: long };
}

/**
 * The size `profile` makes for `ratio` at `resolution` (1K when not given), or undefined when the model cannot make
 * that ratio (beyond its ratio range, or no listed size near it).
 */
export function planRatio(profile: ModelProfile, ratio: AspectRatio, resolution: Resolution = '1K'): RatioPlan | undefined {
  if (profile.aspectRatios?.includes(ratio) === true) {
    const r = ratioValue(ratio);
    const side = LONG_SIDE[resolution];
    // OpenRouter's tiers keep the square's area: the nominal size is as large as what the model makes.
    const size = { width: Math.round(side * Math.sqrt(r)), height: Math.round(side / Math.sqrt(r)) };
    return { size, experimental: false, native: true };
  }
  const size = profile.customSizes ? customSize(profile.customSizes, ratio, resolution) : listedSize(profile.sizes, ratio, resolution);
  if (!size) return undefined;
  const bound = profile.customSizes?.experimentalAbovePixels;
  return { size, experimental: bound !== undefined && size.width * size.height > bound, native: false };
}

function customSize(rule: NonNullable<ModelProfile['customSizes']>, ratio: AspectRatio, resolution: Resolution): Size | undefined {
  const r = ratioValue(ratio);
  if (r > rule.maxRatio || 1 / r > rule.maxRatio) return undefined;
  const ideal = idealSize(ratio, resolution);
  // Within the pixel cap and the longest side, keeping the ratio.
  const scale = Math.min(1, Math.sqrt(rule.maxPixels / (ideal.width * ideal.height)), rule.maxSide / Math.max(ideal.width, ideal.height));
  const target = { width: ideal.width * scale, height: ideal.height * scale };
  const step = rule.multiple;
  let best: Size | undefined;
  let bestScore = Infinity;
  const top = Math.floor(target.width / step) * step + step;
  for (let width = top; width >= top - ROUNDING_STEPS * step && width >= rule.minSide; width -= step) {
    const height = Math.max(step, Math.round(width / r / step) * step);
    if (sizeProblem(width, height, rule) !== undefined) continue;
    // The ratio first; among sizes as close to it, the one nearest the resolution.
    const score = logDistance(width / height, r) * 1000 + logDistance(width * height, target.width * target.height);
    if (score < bestScore) [best, bestScore] = [{ width, height }, score];
  }
  return best;
}

function listedSize(sizes: readonly Size[], ratio: AspectRatio, resolution: Resolution): Size | undefined {
  const r = ratioValue(ratio);
  const near = sizes.filter((size) => logDistance(size.width / size.height, r) <= Math.log(1 + RATIO_TOLERANCE));
  const ideal = idealSize(ratio, resolution);
  const byResolution = (size: Size) => logDistance(size.width * size.height, ideal.width * ideal.height);
  return [...near].sort((a, b) => logDistance(a.width / a.height, r) - logDistance(b.width / b.height, r) || byResolution(a) - byResolution(b))[0];
}

/** The ratios `profile` can make, each with whether its 1K size is experimental. */
export function ratiosOf(profile: ModelProfile): { ratio: AspectRatio; experimental: boolean }[] {
  return ASPECT_RATIOS.flatMap((ratio) => {
    const plan = planRatio(profile, ratio);
    return plan ? [{ ratio, experimental: plan.experimental }] : [];
  });
}

/**
 * The resolutions `profile` makes at `ratio` (1:1 when not given): those where it reaches at least half the pixels
 * asked for, or that its dialect takes itself; each with whether it is experimental.
 */
export function resolutionsOf(profile: ModelProfile, ratio: AspectRatio = '1:1'): { resolution: Resolution; experimental: boolean }[] {
  return RESOLUTIONS.flatMap((resolution) => {
    const plan = planRatio(profile, ratio, resolution);
    if (!plan) return [];
    if (plan.native) return profile.resolutions?.includes(resolution) === true || resolution === '1K' ? [{ resolution, experimental: false }] : [];
    const ideal = idealSize(ratio, resolution);
    const reached = (plan.size.width * plan.size.height) / (ideal.width * ideal.height);
    return reached >= 0.5 ? [{ resolution, experimental: plan.experimental }] : [];
  });
}

/**
 * The request with its ratio (and resolution) turned into the size `profile` makes, keeping them for the card and
 * for a dialect that takes them itself; unchanged when it has neither. A member's request never has both.
 * @throws ImageInputError when the model cannot make the ratio, naming the ratios it can
 */
export function applyRatio<T extends GenerateRequest>(request: T, model: string, profile: ModelProfile): T {
  if (request.ratio === undefined && request.resolution === undefined) return request;
  if (request.size !== undefined) throw new ImageInputError(WIRE_NAMES.size, phrase('allowed.sizeOrRatio'), phrase('detail.size.bothGiven'));
  const ratio = request.ratio ?? '1:1';
  const plan = planRatio(profile, ratio, request.resolution);
  if (!plan) {
    const offered = ratiosOf(profile).map((r) => r.ratio);
    throw new ImageInputError(
      WIRE_NAMES.ratio,
      offered.length > 0 ? literal(...offered) : phrase('allowed.leaveOut'),
      phrase('detail.model.noRatio', { model, ratio }),
    );
  }
  return { ...request, size: plan.size };
}
