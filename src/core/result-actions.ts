/**
 * The actions on a result image (issue 18) as plans: which actions a model supports, and for Zoom out, Pan, Vary
 * region, Enlarge and HD the size (and HD the quality) the edit asks for and where the original goes on its canvas. Sizes follow the model's
 * profile: a model with custom sizes gets the canvas's own aspect (within its ratio and pixel bounds, its sides
 * multiples of its step); one with listed sizes gets the listed size of the nearest aspect. Pure.
 */
import { z } from 'zod';
import type { ModelProfile } from './model-profiles.js';
import { ImageInputError } from './image-rules.js';
import { type Size, sizeText } from './sizes.js';
import { phrase } from './phrase.js';
import { WIRE_NAMES } from './image-request.js';
import type { InputFidelity } from './images.js';
import type { IMAGE_QUALITIES } from './image-request.js';
import { hdQuality, isDraft } from './drafts.js';

type ImageQuality = (typeof IMAGE_QUALITIES)[number];

/** The actions a result offers, by what its model supports (model-profiles.ts). */
export interface ResultActions {
  /** Edits of an image (Vary). */
  edits: boolean;
  /** Edits with a mask (Vary region, Zoom out, Pan). */
  masks: boolean;
  /** A larger size than the result's exists for the model (Enlarge). */
  enlarge: boolean;
  /** The result is a draft (made below high quality) and the model makes it again at high quality (HD, drafts.ts). */
  hd?: boolean | undefined;
}

/**
 * Make emoji and Make sticker (issue 32) need no model: they are offered on a single image posted in a server, where
 * an expression can be added (their rules: expressions.ts).
 */
export function offersExpressions(guildId: string | null): boolean {
  return guildId !== null;
}

/** A change of the canvas around (or a region of) the chosen image, made before the edit is sent (outpaint.ts). */
export const EditTransform = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('zoom'), factor: z.union([z.literal(1.5), z.literal(2)]) }),
  z.object({ kind: z.literal('pan'), direction: z.enum(['left', 'right', 'up', 'down']) }),
  /** Cells of a 3×3 grid, 0–8 row by row from the top left: only they change. */
  z.object({ kind: z.literal('region'), cells: z.array(z.int().min(0).max(8)).min(1).max(9) }),
  /** The same prompt again on the image: subtle keeps it close (high input fidelity), strong lets it wander. */
  z.object({ kind: z.literal('vary'), strength: z.enum(['subtle', 'strong']) }),
  /** The image again at the largest size the model makes at its aspect, kept close (high input fidelity). */
  z.object({ kind: z.literal('enlarge') }),
  /** A draft again at high quality (drafts.ts), at its own size, kept close (high input fidelity). */
  z.object({ kind: z.literal('hd') }),
]);
export type EditTransform = z.infer<typeof EditTransform>;

export const REGION_GRID = 3;

/** An image's or canvas's pixels, as sizes are (sizes.ts). */
export type Dimensions = Size;

/** Where the original goes on the canvas, scaled, in the canvas's pixels. */
export interface Placement extends Dimensions {
  left: number;
  top: number;
}

/** A canvas of `size` with the original at `placement`; what lies outside it is to be filled. */
export interface CanvasPlan {
  size: Dimensions;
  placement: Placement;
}

/** Pan adds half the image's side in its direction. */
const PAN_EXTENT = 1.5;

/** What a result of `size` made at `quality` (as sent) by a model of `profile` offers. */
export function actionsOf(profile: ModelProfile, size: Dimensions | undefined, quality?: string): ResultActions {
  const edits = profile.edits !== null && !profile.edits.squarePng;
  const masks = edits && profile.edits?.mask === true;
  const enlarge = edits && size !== undefined && enlargedSize(profile, size) !== undefined;
  const hd = edits && isDraft(quality) && hdQuality(profile.qualities) !== undefined;
  return { edits, masks, enlarge, hd };
}

/** An action's transform that changes the canvas or marks a region (outpaint.ts builds its image and mask). */
export type CanvasTransform = Extract<EditTransform, { kind: 'zoom' | 'pan' | 'region' }>;

export const isCanvasTransform = (transform: EditTransform | undefined): transform is CanvasTransform =>
  transform?.kind === 'zoom' || transform?.kind === 'pan' || transform?.kind === 'region';

/**
 * What an action's edit asks for, given the chosen image's `source` dimensions (as declared; 1024×1024 when not):
 * its size, and its input fidelity where the model takes one.
 * @throws ImageInputError when the model cannot do it (no edits, no masks, no larger size)
 */
export function actionRequest(
  transform: EditTransform,
  source: Dimensions,
  profile: ModelProfile,
  model: string,
): { size: Size; inputFidelity: InputFidelity | undefined; quality?: ImageQuality | undefined } {
  const { edits } = profile;
  if (!edits || edits.squarePng) throw new ImageInputError(WIRE_NAMES.images, phrase('allowed.editModel'), phrase('detail.model.noVariations', { model }));
  if (isCanvasTransform(transform) && !edits.mask)
    throw new ImageInputError(WIRE_NAMES.mask, phrase('allowed.maskModel'), phrase('detail.model.noMask', { model }));
  const fidelity = (value: InputFidelity) => (edits.inputFidelity ? value : undefined);
  switch (transform.kind) {
    case 'vary':
      return {
        size: fitSize(profile, source.width / source.height, source.width * source.height),
        inputFidelity: fidelity(transform.strength === 'subtle' ? 'high' : 'low'),
      };
    case 'hd': {
      const quality = hdQuality(profile.qualities);
      if (!quality) throw new ImageInputError(WIRE_NAMES.quality, phrase('allowed.editModel'), phrase('detail.hd.notDraft'));
      return { size: fitSize(profile, source.width / source.height, source.width * source.height), inputFidelity: fidelity('high'), quality };
    }
    case 'enlarge': {
      const size = enlargedSize(profile, source);
      if (!size)
        throw new ImageInputError(WIRE_NAMES.size, phrase('allowed.largerSize'), phrase('detail.model.nothingLarger', { model, size: sizeText(source) }));
      return { size, inputFidelity: fidelity('high') };
    }
    case 'zoom':
    case 'pan':
    case 'region':
      return { size: planCanvas(transform, source, profile).size, inputFidelity: undefined };
  }
}

/** The canvas of a zoom out or a pan of an image of `source` dimensions, for `profile`. */
export function planCanvas(transform: CanvasTransform, source: Dimensions, profile: ModelProfile): CanvasPlan {
  if (transform.kind === 'region') {
    const size = fitSize(profile, source.width / source.height, source.width * source.height);
    return { size, placement: { left: 0, top: 0, ...size } };
  }
  const wide = transform.kind === 'pan' && (transform.direction === 'left' || transform.direction === 'right');
  const tall = transform.kind === 'pan' && !wide;
  const factor = transform.kind === 'zoom' ? transform.factor : 1;
  const canvas = {
    width: source.width * factor * (wide ? PAN_EXTENT : 1),
    height: source.height * factor * (tall ? PAN_EXTENT : 1),
  };
  const pixels = transform.kind === 'zoom' ? source.width * source.height : canvas.width * canvas.height;
  const size = fitSize(profile, canvas.width / canvas.height, pixels);
  const scale = Math.min(size.width / canvas.width, size.height / canvas.height);
  const width = Math.round(source.width * scale);
  const height = Math.round(source.height * scale);
  // The canvas, scaled, centred in the size; the original in it: centred, or on the side away from the pan.
  const canvasLeft = (size.width - canvas.width * scale) / 2;
  const canvasTop = (size.height - canvas.height * scale) / 2;
  const direction = transform.kind === 'pan' ? transform.direction : undefined;
  const left = direction === 'right' ? canvasLeft : direction === 'left' ? canvasLeft + canvas.width * scale - width : (size.width - width) / 2;
  const top = direction === 'down' ? canvasTop : direction === 'up' ? canvasTop + canvas.height * scale - height : (size.height - height) / 2;
  return { size, placement: { left: Math.round(left), top: Math.round(top), width, height } };
}

/** The largest size the model makes at the aspect of `size`, when it has more pixels than `size`. */
export function enlargedSize(profile: ModelProfile, size: Dimensions): Dimensions | undefined {
  const rule = profile.customSizes;
  const most = rule ? Math.min(rule.maxPixels, rule.experimentalAbovePixels ?? rule.maxPixels) : Number.MAX_SAFE_INTEGER;
  const bigger = fitSize(profile, size.width / size.height, most, true);
  return bigger.width * bigger.height > size.width * size.height ? bigger : undefined;
}

/**
 * A size the model takes at about `aspect` (width / height) with about `pixels` pixels: within a custom size rule,
 * or the listed size of the nearest aspect (the most pixels among equals when `largest`, else the nearest in pixels).
 */
export function fitSize(profile: ModelProfile, aspect: number, pixels: number, largest = false): Dimensions {
  const rule = profile.customSizes;
  if (rule) {
    const ratio = Math.min(Math.max(aspect, 1 / rule.maxRatio), rule.maxRatio);
    const budget = Math.min(pixels, rule.maxPixels, rule.experimentalAbovePixels ?? rule.maxPixels);
    const side = (value: number) => Math.min(Math.max(Math.floor(value / rule.multiple) * rule.multiple, rule.minSide), rule.maxSide);
    const width = side(Math.sqrt(budget * ratio));
    return { width, height: side(width / ratio) };
  }
  const listed = profile.sizes;
  const distance = (s: Dimensions) => Math.abs(Math.log(s.width / s.height / aspect));
  const nearest = Math.min(...listed.map(distance));
  const candidates = listed.filter((s) => distance(s) - nearest < 1e-9);
  const score = (s: Dimensions) => (largest ? -s.width * s.height : Math.abs(s.width * s.height - pixels));
  return candidates.sort((a, b) => score(a) - score(b))[0] ?? { width: 1024, height: 1024 };
}

/** The rectangle of region cell `cell` (0–8) of an image of `size`. */
export function cellRect(cell: number, size: Dimensions): Placement {
  const column = cell % REGION_GRID;
  const row = Math.floor(cell / REGION_GRID);
  const left = Math.round((column * size.width) / REGION_GRID);
  const top = Math.round((row * size.height) / REGION_GRID);
  return {
    left,
    top,
    width: Math.round(((column + 1) * size.width) / REGION_GRID) - left,
    height: Math.round(((row + 1) * size.height) / REGION_GRID) - top,
  };
}
