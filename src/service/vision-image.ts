/**
 * The image describe sends to the vision model: never larger than a model reads anyway. An image over
 * VISION_MAX_SIDE on its long side or VISION_MAX_BYTES, a GIF or a rotated JPEG is decoded by sharp (its declared
 * pixels capped first, and sharp's own limitInputPixels as well, under a time limit) and re-encoded as a JPEG of at
 * most VISION_MAX_SIDE px and VISION_MAX_BYTES; a small one goes as it came. So the data URL built from it is small
 * whatever a member uploads.
 */
import { loadSharp } from '../lazy-sharp.js';
import { UserFacingError } from '../errors.js';
import { phrase } from '../core/phrase.js';

const MIB = 1024 * 1024;
/** The long side of the image sent: what vision models scale down to anyway. */
export const VISION_MAX_SIDE = 2048;
/** The most the image sent weighs. */
export const VISION_MAX_BYTES = 4 * MIB;
/** The most pixels a describe decodes (a 10000x10000 photo); a larger declared image is refused unread. */
export const VISION_MAX_INPUT_PIXELS = 100_000_000;
/** Beyond the downloaded image, what a downscale holds at its peak: the output's pixels, and its encoding. */
export const DOWNSCALE_WORK_BYTES = VISION_MAX_SIDE * VISION_MAX_SIDE * 4 + VISION_MAX_BYTES;
/** JPEG qualities tried in turn until the image fits VISION_MAX_BYTES. */
const QUALITIES = [85, 70, 50] as const;

/** An image as the vision model gets it. */
export interface VisionImage {
  bytes: Buffer;
  format: 'png' | 'jpeg' | 'webp' | 'gif';
}

/**
 * `bytes` (of the sniffed `format`) made fit for the vision model, within `timeoutSeconds` of decoding.
 * @throws UserFacingError input.attachmentInvalid (too many pixels, or not decodable) or promptHelp.failed (too slow)
 */
export async function visionImage(bytes: Buffer, format: VisionImage['format'], filename: string, timeoutSeconds: number): Promise<VisionImage> {
  const notDescribable = (cause?: unknown) =>
    new UserFacingError('input.attachmentInvalid', { param: filename, detail: phrase('detail.image.notDescribable') }, { cause });
  const sharp = await loadSharp();
  // The header only (no pixels are decoded): the declared size is checked here, with a message that says so.
  const meta = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch((err: unknown) => {
      throw notDescribable(err);
    });
  const { width, height } = meta;
  if (!(width > 0 && height > 0)) throw notDescribable();
  if (width * height > VISION_MAX_INPUT_PIXELS)
    throw new UserFacingError('input.attachmentInvalid', {
      param: filename,
      detail: phrase('detail.size.pixels', { pixels: VISION_MAX_INPUT_PIXELS, hasExample: 'no', example: '' }),
    });
  const upright = (meta.orientation ?? 1) === 1;
  if (format !== 'gif' && upright && Math.max(width, height) <= VISION_MAX_SIDE && bytes.length <= VISION_MAX_BYTES) return { bytes, format };
  for (const quality of QUALITIES) {
    const out = await sharp(bytes, { limitInputPixels: VISION_MAX_INPUT_PIXELS, sequentialRead: true })
      .rotate()
      .resize({ width: VISION_MAX_SIDE, height: VISION_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality })
      .timeout({ seconds: timeoutSeconds })
      .toBuffer()
      .catch((err: unknown) => {
        if (err instanceof Error && /timeout/i.test(err.message)) throw new UserFacingError('promptHelp.failed', {}, { cause: err });
        throw notDescribable(err);
      });
    if (out.length <= VISION_MAX_BYTES) return { bytes: out, format: 'jpeg' };
  }
  throw notDescribable();
}
