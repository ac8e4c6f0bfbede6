/**
 * Turns what the gateway returned into checked image bytes: base64 decoded once under a size cap, the magic bytes
 * compared with the requested format, and the dimensions read from the header only (image-size for rasters, the
 * document's own width, height or viewBox for an SVG: svg-sanitise.ts), and refused above the pixel cap
 * (MAX_DECODE_PIXELS) before anything decodes them. image-size is a small pure-JavaScript header reader: checking an
 * answer does not load sharp and libvips (about 26 MB resident, docs/benchmarks.md), which a job that only delivers
 * what the gateway made never needs.
 */
import type { GeneratedImage, ImageFormat } from '../core/images.js';
import { overPixelCap, sniffImageFormat } from '../core/image-rules.js';
import { svgDeclaredSize } from '../core/svg-sanitise.js';
import { imageSize } from 'image-size';
import { GatewayResponseError } from './errors.js';
import { tooLarge } from './http-errors.js';

/** MAX_DECODE_PIXELS' default, for the gateway client's options. */
export { DEFAULT_MAX_DECODE_PIXELS } from '../core/image-rules.js';

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
export function checkImage(bytes: Buffer, expected: ImageFormat | undefined, maxPixels: number, requestId?: string): Promise<GeneratedImage> {
  // A promise still, as the callers start a check per image while the answer arrives and await them together.
  return new Promise((resolve) => resolve(checkedImage(bytes, expected, maxPixels, requestId)));
}

function checkedImage(bytes: Buffer, expected: ImageFormat | undefined, maxPixels: number, requestId: string | undefined): GeneratedImage {
  const format = sniffImageFormat(bytes);
  if (!format) throw invalid('gateway returned bytes that are not a png, jpeg, webp, gif or svg image', requestId);
  if (expected && format !== expected) throw invalid(`gateway returned ${format} but ${expected} was requested`, requestId);
  if (format === 'svg') return { bytes, format, ...(svgDeclaredSize(bytes) ?? { width: 0, height: 0 }) };
  let width: number | undefined;
  let height: number | undefined;
  try {
    // The header only: no pixel is decoded, so the cap is checked before anything could be.
    ({ width, height } = imageSize(bytes));
  } catch (err) {
    throw invalid(`gateway returned an unreadable ${format} image`, requestId, err);
  }
  if (!width || !height) throw invalid(`gateway returned a ${format} image without dimensions`, requestId);
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
