/**
 * A streamed partial image made fit to post as a preview: under the interaction's upload limit
 * (`attachment_size_limit`) as it came, else re-encoded smaller (sharp: at most PREVIEW_MAX_SIDE px, WebP), else not
 * shown. The re-encode's pixels are admitted to the memory budget first, without waiting (a preview is never worth
 * holding a job up): with no room, there is no preview.
 */
import { loadSharp } from '../lazy-sharp.js';
import type { PartialImage } from '../core/images.js';

/** The long side of a preview made smaller. */
export const PREVIEW_MAX_SIDE = 768;
/** Decoding guard for a partial image (the largest the gateway makes is 3840x2160). */
const MAX_INPUT_PIXELS = 40_000_000;
/** WebP qualities tried in turn. */
const QUALITIES = [70, 45] as const;

/** Room taken without waiting; undefined when there is none now. */
export type TryTake = (bytes: number) => (() => void) | undefined;

/** `image` as it may be posted under `limitBytes`, or undefined when it cannot be (it is then not shown). */
export async function fitPreview(image: PartialImage, limitBytes: number, tryTake: TryTake): Promise<PartialImage | undefined> {
  if (image.bytes.length <= limitBytes) return image;
  const sharp = await loadSharp();
  const meta = await sharp(image.bytes, { limitInputPixels: MAX_INPUT_PIXELS })
    .metadata()
    .catch(() => undefined);
  if (!meta || !(meta.width * meta.height <= MAX_INPUT_PIXELS)) return undefined;
  // The decoded pixels and the encoding, at most.
  const release = tryTake(meta.width * meta.height * 4 + limitBytes);
  if (!release) return undefined;
  try {
    for (const quality of QUALITIES) {
      const bytes = await sharp(image.bytes, { limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true })
        .resize({ width: PREVIEW_MAX_SIDE, height: PREVIEW_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
        .webp({ quality })
        .timeout({ seconds: 10 })
        .toBuffer();
      if (bytes.length <= limitBytes) return { index: image.index, bytes, format: 'webp' };
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    release();
  }
}
