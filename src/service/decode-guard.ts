/**
 * Every image the bot decodes, or passes on to be decoded, has its declared size read from its header first and
 * refused above MAX_DECODE_PIXELS (issue 28): references for /edit, the image Zoom out and Pan build their canvas
 * from, an image shown again as its own card, an image to describe. The gateway's answers are checked as they
 * arrive (gateway/decode.ts). sharp's metadata() reads the header only, so a PNG declaring 20000x20000 is refused
 * without a pixel being decoded; the decodes that follow pass the same cap to sharp as limitInputPixels.
 */
import { loadSharp } from '../lazy-sharp.js';
import { UserFacingError } from '../errors.js';
import { overPixelCap } from '../core/image-rules.js';
import { tooManyPixels } from '../core/phrase.js';

/** What the header says. */
export interface ImageHeader {
  width: number;
  height: number;
  hasAlpha: boolean;
}

/** The header of `bytes`, or undefined when it cannot be read. */
export async function readHeader(bytes: Uint8Array): Promise<ImageHeader | undefined> {
  const sharp = await loadSharp();
  try {
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    return { width: meta.width, height: meta.height, hasAlpha: meta.hasAlpha };
  } catch {
    return undefined;
  }
}

/**
 * The header of `bytes` (undefined when unreadable), refused when it declares more than `maxPixels`.
 * @throws UserFacingError `input.attachmentInvalid` naming `param`, saying how large it is and what is allowed
 */
export async function checkedHeader(bytes: Uint8Array, maxPixels: number, param?: string): Promise<ImageHeader | undefined> {
  const header = await readHeader(bytes);
  if (header && overPixelCap(header.width, header.height, maxPixels)) {
    throw new UserFacingError('input.attachmentInvalid', { param, detail: tooManyPixels({ width: header.width, height: header.height, max: maxPixels }) });
  }
  return header;
}
