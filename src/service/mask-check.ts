/**
 * The edit rules that read images: a mask must have an alpha channel and the first image's dimensions, and a
 * square-only model's reference must be square. They
 * read headers with sharp, so they live apart from the pure rules of image-rules.ts (which the gateway may import);
 * only the service runs them, once per edit, after validateEditRequest.
 */
import { loadSharp } from '../lazy-sharp.js';
import { WIRE_NAMES } from '../core/image-request.js';
import { ImageInputError } from '../core/image-rules.js';
import { phrase } from '../core/phrase.js';
import type { EditRequest } from '../core/images.js';

async function inspect(bytes: Uint8Array): Promise<{ width: number; height: number; hasAlpha: boolean } | undefined> {
  const sharp = await loadSharp();
  try {
    const meta = await sharp(bytes).metadata();
    return { width: meta.width, height: meta.height, hasAlpha: meta.hasAlpha };
  } catch {
    return undefined;
  }
}

/**
 * Checks that an edit's mask, if it has one, fits its first image: both readable, the mask with alpha, the same
 * width and height. The mask's format and byte size are validateEditRequest's to check first.
 * @throws ImageInputError naming the mask (or the image, when the first one cannot be read)
 */
export async function checkMask(req: EditRequest): Promise<void> {
  const first = req.images[0];
  if (!req.mask || !first) return;
  const [maskInfo, firstInfo] = await Promise.all([inspect(req.mask.bytes), inspect(first.bytes)]);
  if (!maskInfo) throw new ImageInputError(WIRE_NAMES.mask, phrase('allowed.readablePng'));
  if (!firstInfo) throw new ImageInputError(WIRE_NAMES.images, phrase('allowed.readableImage'));
  if (!maskInfo.hasAlpha) throw new ImageInputError(WIRE_NAMES.mask, phrase('allowed.maskAlpha'));
  if (maskInfo.width !== firstInfo.width || maskInfo.height !== firstInfo.height) {
    throw new ImageInputError(WIRE_NAMES.mask, phrase('allowed.maskDimensions', { width: String(firstInfo.width), height: String(firstInfo.height) }));
  }
}

/**
 * For a model that edits square PNGs only (dall-e-2): the reference, once fetched, really is square (Discord's
 * declared dimensions were checked before; a declaration can lie).
 * @throws ImageInputError naming the image
 */
export async function checkSquare(req: EditRequest, model: string): Promise<void> {
  const info = req.images[0] ? await inspect(req.images[0].bytes) : undefined;
  if (info && info.width !== info.height)
    throw new ImageInputError(WIRE_NAMES.images, phrase('allowed.squarePng'), phrase('detail.model.squarePngOnly', { model }));
}
