/**
 * A PNG that declares more pixels than it carries: a valid signature and IHDR (8-bit greyscale, any width and
 * height), an IDAT of the first `rawBytes` of its all-zero rows, deflated, and IEND. Its header is all a reader of
 * headers sees; a decoder sizes its buffers from it (librsvg, for an embedded data: image, allocates the whole
 * surface) before it finds the data short. The decompression bomb of issue 28, in a few kilobytes.
 */
import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)) >>> 0, 8 + data.length);
  return out;
}

/** A `width` x `height` greyscale PNG header with `rawBytes` of its rows (zeros) deflated behind it. */
export function declaredPng(width: number, height: number, rawBytes = 1_000_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(rawBytes))), chunk('IEND', Buffer.alloc(0))]);
}
