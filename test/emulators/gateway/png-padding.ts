/**
 * Pads a PNG to an exact size with a private ancillary chunk (`pdNg`, which decoders skip), so a test or the
 * benchmark can have megabytes of valid image cheaply: sharp reads its header as fast as any, and re-encoding it
 * costs only its few pixels.
 */
import { crc32 } from 'node:zlib';

const CHUNK_OVERHEAD = 12;
const IEND_BYTES = 12;
const TYPE = Buffer.from('pdNg', 'latin1');

/** `png` grown to exactly `totalBytes` (or returned as it is when it is that large already). */
export function padPng(png: Buffer, totalBytes: number): Buffer {
  const padding = totalBytes - png.length - CHUNK_OVERHEAD;
  if (padding < 0) return png;
  const head = png.subarray(0, png.length - IEND_BYTES);
  const out = Buffer.alloc(totalBytes);
  head.copy(out, 0);
  let at = head.length;
  out.writeUInt32BE(padding, at);
  TYPE.copy(out, at + 4);
  // The data stays zeros; the CRC covers the type and the data.
  out.writeUInt32BE(crc32(out.subarray(at + 8, at + 8 + padding), crc32(TYPE)) >>> 0, at + 8 + padding);
  at += CHUNK_OVERHEAD + padding;
  png.subarray(png.length - IEND_BYTES).copy(out, at);
  return out;
}
