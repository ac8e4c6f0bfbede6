/**
 * An image decoded to resized RGBA pixels within bounds: its header checked against the pixel cap before any pixel is
 * read (decode-guard.ts), turned upright, resized, with sharp's own time limit. What an emoji or sticker and a saved
 * style's copy start from before they are encoded to fit their byte limits.
 */
import { loadSharp } from '../lazy-sharp.js';
import { UserFacingError } from '../errors.js';
import type { PhraseId } from '../core/phrase.js';
import { phrase } from '../core/phrase.js';
import { checkedHeader } from './decode-guard.js';

/** How the image is fitted: cropped to cover the size (from its centre), or inside it (never enlarged when asked). */
export type Fit = { fit: 'cover'; position: 'centre' } | { fit: 'inside'; withoutEnlargement: boolean };

/** How one image is read: its name for the member, the pixel cap, the time limit, and the detail a refusal gives. */
export interface PixelsOptions {
  filename: string;
  maxPixels: number;
  timeoutSeconds: number;
  detail: PhraseId;
}

/** Decoded RGBA pixels and their raw layout, for sharp to encode. */
export interface ResizedPixels {
  data: Buffer;
  raw: { width: number; height: number; channels: 4 };
}

/** The refusal of an image that cannot be read within bounds. */
export function unreadableImage(options: Pick<PixelsOptions, 'filename' | 'detail'>, cause?: unknown): UserFacingError {
  return new UserFacingError('input.attachmentInvalid', { param: options.filename, detail: phrase(options.detail) }, { cause });
}

/**
 * `bytes` decoded, upright, resized to `width`×`height` as `resize` says.
 * @throws UserFacingError input.attachmentInvalid (too many pixels, unreadable, too slow)
 */
export async function resizedPixels(bytes: Buffer, width: number, height: number, resize: Fit, options: PixelsOptions): Promise<ResizedPixels> {
  const header = await checkedHeader(bytes, options.maxPixels, options.filename);
  if (!header) throw unreadableImage(options);
  const sharp = await loadSharp();
  const { data, info } = await sharp(bytes, { limitInputPixels: options.maxPixels, sequentialRead: true })
    .rotate()
    .resize(width, height, resize)
    .ensureAlpha()
    .raw()
    .timeout({ seconds: options.timeoutSeconds })
    .toBuffer({ resolveWithObject: true })
    .catch((err: unknown) => {
      throw unreadableImage(options, err);
    });
  return { data, raw: { width: info.width, height: info.height, channels: 4 } };
}
