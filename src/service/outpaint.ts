/**
 * The images an action's edit sends (issue 18), built with sharp: for Zoom out and Pan, the original scaled onto a
 * larger transparent canvas and a mask that is transparent (to be filled) everywhere but the original; for Vary
 * region, the image as it is and a mask transparent in the chosen cells. Both are PNGs of the size the edit asks for.
 */
import { loadSharp, type Sharp } from '../lazy-sharp.js';
import { cellRect, planCanvas, type CanvasTransform, type Dimensions, type Placement } from '../core/result-actions.js';
import type { ModelProfile } from '../core/model-profiles.js';
import { UserFacingError } from '../errors.js';
import { checkedHeader } from './decode-guard.js';
import { phrase } from '../core/phrase.js';

const CLEAR = { r: 0, g: 0, b: 0, alpha: 0 };
const SOLID = { r: 0, g: 0, b: 0, alpha: 1 };

/**
 * The edit's image and mask for `transform` of `bytes`, and the size to ask for. The image's header is read first:
 * one declaring more than `maxPixels` (MAX_DECODE_PIXELS) is refused before it is decoded (decode-guard.ts).
 */
export async function outpaint(
  bytes: Uint8Array,
  transform: CanvasTransform,
  profile: ModelProfile,
  maxPixels: number,
): Promise<{ image: Buffer; mask: Buffer; size: Dimensions }> {
  const meta = await checkedHeader(bytes, maxPixels);
  if (!meta) throw new UserFacingError('input.attachmentInvalid', { detail: phrase('allowed.readableImage') });
  const plan = planCanvas(transform, { width: meta.width, height: meta.height }, profile);
  const { size, placement } = plan;
  const sharp = await loadSharp();
  const placed = await sharp(bytes, { limitInputPixels: maxPixels }).resize(placement.width, placement.height, { fit: 'fill' }).ensureAlpha().png().toBuffer();
  const image = await blank(sharp, size, CLEAR)
    .composite([{ input: placed, left: placement.left, top: placement.top }])
    .png()
    .toBuffer();
  const kept: Placement[] = transform.kind === 'region' ? everyCellBut(transform.cells, size) : [placement];
  const mask = await blank(sharp, size, CLEAR)
    .composite(
      kept.map((rect) => ({
        input: { create: { width: rect.width, height: rect.height, channels: 4 as const, background: SOLID } },
        left: rect.left,
        top: rect.top,
      })),
    )
    .png()
    .toBuffer();
  return { image, mask, size };
}

function blank(sharp: Awaited<ReturnType<typeof loadSharp>>, size: Dimensions, background: typeof CLEAR): Sharp {
  return sharp({ create: { width: size.width, height: size.height, channels: 4, background } });
}

/** The cells that stay (opaque in the mask): all but the chosen ones. */
function everyCellBut(cells: readonly number[], size: Dimensions): Placement[] {
  return Array.from({ length: 9 }, (_, cell) => cell)
    .filter((cell) => !cells.includes(cell))
    .map((cell) => cellRect(cell, size));
}
