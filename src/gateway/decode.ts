/**
 * Turns what the gateway returned into checked image bytes: base64 decoded once under a size cap, the magic bytes
 * compared with the requested format, and the dimensions read with sharp (header only).
 */
import sharp from 'sharp';
import type { GeneratedImage, ImageFormat } from '../service/ports.js';
import { sniffImageFormat } from '../service/image-rules.js';
import { GatewayResponseError } from './errors.js';
import { tooLarge } from './http-errors.js';

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
 * reads its dimensions.
 */
export async function checkImage(bytes: Buffer, expected: ImageFormat | undefined, requestId?: string): Promise<GeneratedImage> {
  const format = sniffImageFormat(bytes);
  if (!format) throw invalid('gateway returned bytes that are not a png, jpeg, webp, gif or svg image', requestId);
  if (expected && format !== expected) throw invalid(`gateway returned ${format} but ${expected} was requested`, requestId);
  let width: number;
  let height: number;
  try {
    ({ width, height } = await sharp(bytes).metadata());
  } catch (err) {
    throw invalid(`gateway returned an unreadable ${format} image`, requestId, err);
  }
  return { bytes, format, width, height };
}

function invalid(message: string, requestId: string | undefined, cause?: unknown): GatewayResponseError {
  return new GatewayResponseError(message, { category: 'gateway_failure', code: 'invalid_image', requestId, cause });
}
