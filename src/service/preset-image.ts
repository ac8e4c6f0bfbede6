/**
 * A preset's image kept as a small copy (issue 32): turned upright, fitted within PRESET_IMAGE_SIDE pixels (never
 * enlarged) and encoded as WebP within PRESET_IMAGE_MAX_BYTES, trying lower qualities in turn. A small copy, not the
 * Discord attachment's URL, because attachment URLs are signed and expire (docs: discord-platform.md); re-encoding
 * also drops the file's metadata. The decode is capped in pixels (header first) and in time.
 */
import { loadSharp } from '../lazy-sharp.js';
import { PRESET_IMAGE_MAX_BYTES, PRESET_IMAGE_SIDE } from '../core/style-presets.js';
import { resizedPixels, unreadableImage } from './resized-pixels.js';

/** WebP qualities tried in turn. */
const QUALITIES = [85, 70, 50, 30] as const;

/** What one copy's work holds at its peak beyond the downloaded image: the fitted pixels twice and one encoding. */
export const PRESET_IMAGE_WORK_BYTES = PRESET_IMAGE_SIDE * PRESET_IMAGE_SIDE * 4 * 2 + PRESET_IMAGE_MAX_BYTES * 2;

/**
 * `bytes` as a WebP within the preset bounds, and its pixels.
 * @throws UserFacingError input.attachmentInvalid (too many pixels, unreadable, too slow, too large even at the lowest quality)
 */
export async function presetImage(
  bytes: Buffer,
  options: { filename: string; maxPixels: number; timeoutSeconds: number },
): Promise<{ bytes: Buffer; width: number; height: number }> {
  const read = { ...options, detail: 'detail.image.notEditable' as const };
  const { data, raw } = await resizedPixels(bytes, PRESET_IMAGE_SIDE, PRESET_IMAGE_SIDE, { fit: 'inside', withoutEnlargement: true }, read);
  const sharp = await loadSharp();
  for (const quality of QUALITIES) {
    const webp = await sharp(data, { raw }).timeout({ seconds: options.timeoutSeconds }).webp({ quality }).toBuffer();
    if (webp.length <= PRESET_IMAGE_MAX_BYTES) return { bytes: webp, width: raw.width, height: raw.height };
  }
  throw unreadableImage(read);
}
