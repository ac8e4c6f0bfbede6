/**
 * Turns what the gateway returned into checked image bytes: base64 decoded once under a size cap, the magic bytes
 * compared with the requested format, and the dimensions read from the header only (sharp's metadata for rasters,
 * the document's own width, height or viewBox for an SVG: svg-sanitise.ts), and refused above the pixel cap
 * (MAX_DECODE_PIXELS) before anything decodes them.
 */
import type { GeneratedImage, ImageFormat } from '../service/ports.js';
import { overPixelCap, sniffImageFormat } from '../service/image-rules.js';
import { svgDeclaredSize } from '../service/svg-sanitise.js';
import { loadSharp } from '../lazy-sharp.js';
import { GatewayResponseError } from './errors.js';
import { tooLarge } from './http-errors.js';

/** MAX_DECODE_PIXELS' default, for the gateway client's options. */
export { DEFAULT_MAX_DECODE_PIXELS } from '../service/image-rules.js';

/** Decodes base64 into a Buffer, refusing anything that would exceed `maxBytes` before allocating it. */
export function decodeBase64(b64: string, maxBytes: number, requestId?: string): Buffer {
  // 4 base64 characters carry 3 bytes; checking the text length first avoids allocating an oversized buffer.
  if (Math.floor((b64.length * 3) / 4) > maxBytes + 3) throw tooLarge(maxBytes, requestId);
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes, requestId);
  return bytes;
}

/**
 * Checks that the bytes are a png, jpeg, webp, gif or svg image — the requested format when one was requested — and
 * reads its dimensions; a raster image declaring more than `maxPixels` is refused (code `image_too_large`). An SVG
 * is drawn at a size the bot chooses (svg-render.ts), so its declared size is only read; one that cannot be read is
 * refused when it is rendered.
 */
export async function checkImage(bytes: Buffer, expected: ImageFormat | undefined, maxPixels: number, requestId?: string): Promise<GeneratedImage> {
  const format = sniffImageFormat(bytes);
  if (!format) throw invalid('gateway returned bytes that are not a png, jpeg, webp, gif or svg image', requestId);
  if (expected && format !== expected) throw invalid(`gateway returned ${format} but ${expected} was requested`, requestId);
  if (format === 'svg') return { bytes, format, ...(svgDeclaredSize(bytes) ?? { width: 0, height: 0 }) };
  const sharp = await loadSharp();
  let width: number;
  let height: number;
  try {
    // The header only: metadata() decodes no pixels, so the cap is checked here rather than by sharp's limit.
    ({ width, height } = await sharp(bytes, { limitInputPixels: false }).metadata());
  } catch (err) {
    throw invalid(`gateway returned an unreadable ${format} image`, requestId, err);
  }
  if (overPixelCap(width, height, maxPixels)) {
    throw new GatewayResponseError(`gateway returned a ${width}x${height} ${format} image, more than ${maxPixels} pixels`, {
      category: 'gateway_failure',
      code: 'image_too_large',
      requestId,
      pixels: { width, height, max: maxPixels },
    });
  }
  return { bytes, format, width, height };
}

function invalid(message: string, requestId: string | undefined, cause?: unknown): GatewayResponseError {
  return new GatewayResponseError(message, { category: 'gateway_failure', code: 'invalid_image', requestId, cause });
}
