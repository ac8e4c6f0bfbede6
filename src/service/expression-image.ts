/**
 * An image made into an emoji or a sticker (issue 32): turned upright, cropped to its centre square and resized to the
 * kind's side (core/expressions.ts), then encoded as a PNG that fits the kind's byte limit: first as it is, then with
 * fewer and fewer colours (a palette). The decode is capped in pixels (MAX_DECODE_PIXELS, the header refused before
 * any pixel is read) and in time; an image that will not fit even with the fewest colours is refused, saying so.
 */
import { loadSharp } from '../lazy-sharp.js';
import type { ExpressionSpec } from '../core/expressions.js';
import { UserFacingError } from '../errors.js';
import { resizedPixels } from './resized-pixels.js';

/** PNG encodings tried in turn, the best looking first: full colour, then palettes of fewer colours. */
const LADDER: readonly ({ palette: false } | { palette: true; colours: number; quality: number })[] = [
  { palette: false },
  { palette: true, colours: 256, quality: 90 },
  { palette: true, colours: 128, quality: 70 },
  { palette: true, colours: 64, quality: 50 },
  { palette: true, colours: 16, quality: 30 },
];

/** What one expression's image work holds at its peak beyond the downloaded image: the square's pixels twice and one encoding. */
export function expressionWorkBytes(spec: ExpressionSpec): number {
  return spec.side * spec.side * 4 * 2 + spec.maxBytes * 2;
}

/**
 * `bytes` as a square PNG of `spec.side` pixels within `spec.maxBytes`.
 * @throws UserFacingError input.attachmentInvalid (too many pixels, unreadable, too slow) or expression.tooLarge
 */
export async function expressionImage(
  bytes: Buffer,
  spec: ExpressionSpec,
  options: { filename: string; maxPixels: number; timeoutSeconds: number },
): Promise<Buffer> {
  const read = { ...options, detail: 'detail.image.notDescribable' as const };
  // `cover` keeps the centre square of the image and scales it to the side (up, too, for a small image).
  const { data, raw } = await resizedPixels(bytes, spec.side, spec.side, { fit: 'cover', position: 'centre' }, read);
  const sharp = await loadSharp();
  for (const step of LADDER) {
    const pipeline = sharp(data, { raw }).timeout({ seconds: options.timeoutSeconds });
    const png = await (
      step.palette
        ? pipeline.png({ palette: true, colours: step.colours, quality: step.quality, compressionLevel: 9, effort: 7 })
        : pipeline.png({ compressionLevel: 9 })
    ).toBuffer();
    if (png.length <= spec.maxBytes) return png;
  }
  throw new UserFacingError('expression.tooLarge', { limit: Math.floor(spec.maxBytes / 1024) });
}
