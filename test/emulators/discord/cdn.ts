/**
 * The emulator's CDN: stores attachment bytes and serves them at signed-looking URLs on the emulator's own port.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { IS_SPOILER, type Attachment } from './types.js';

interface StoredFile {
  readonly attachment: Attachment;
  readonly bytes: Buffer;
}

/** Attachment store plus the GET handler that serves it. */
export class Cdn {
  private readonly files = new Map<string, StoredFile>();
  private readonly baseUrl: string;
  private readonly bytesPerSecond: number | undefined;

  constructor(baseUrl: string, bytesPerSecond?: number) {
    this.baseUrl = baseUrl;
    this.bytesPerSecond = bytesPerSecond;
  }

  /**
   * Stores bytes and returns the Attachment object Discord would send.
   * @param folder `ephemeral-attachments/{scope}` for user uploads on commands, `attachments/{channel}` for messages
   */
  store(id: string, folder: string, bytes: Uint8Array, filename: string, contentType?: string, extra: Partial<Attachment> = {}): Attachment {
    // Uploads arrive as fresh Buffers of their own; only other views are copied.
    const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes);
    const type = contentType ?? sniffContentType(buffer) ?? 'application/octet-stream';
    const url = `${this.baseUrl}/${folder}/${id}/${encodeURIComponent(filename)}${signature(id)}`;
    const size = imageSize(buffer);
    // Discord flags a SPOILER_ name IS_SPOILER, as it does an upload that says is_spoiler (messages.ts).
    const spoiler = filename.startsWith('SPOILER_');
    const attachment: Attachment = {
      id,
      filename,
      size: buffer.length,
      url,
      proxy_url: url,
      content_type: type,
      ...(size ?? {}),
      ...extra,
      ...(spoiler ? { flags: IS_SPOILER } : {}),
    };
    this.files.set(id, { attachment, bytes: buffer });
    return attachment;
  }

  get(id: string): Attachment | undefined {
    return this.files.get(id)?.attachment;
  }

  /** Bytes of a stored attachment, or undefined. */
  bytes(id: string): Buffer | undefined {
    return this.files.get(id)?.bytes;
  }

  /** Every CDN path requested, in order (a test counts what the bot fetched). */
  readonly fetches: string[] = [];

  /** Serves GET /(ephemeral-)attachments/…/{id}/{filename}; returns false when the path is not a CDN path. */
  serve(pathname: string, res: ServerResponse): boolean {
    const match = /^\/(?:ephemeral-attachments|attachments)\/[^/]+\/(\d+)\/([^/]+)$/.exec(pathname);
    if (!match) return false;
    this.fetches.push(pathname);
    const file = this.files.get(match[1] ?? '');
    if (file?.attachment.filename !== decodeURIComponent(match[2] ?? '')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return true;
    }
    res.writeHead(200, { 'content-type': file.attachment.content_type ?? 'application/octet-stream', 'content-length': file.bytes.length });
    if (this.bytesPerSecond === undefined) res.end(file.bytes);
    else void trickle(res, file.bytes, this.bytesPerSecond);
    return true;
  }
}

/** Sends `bytes` in tenths of a second's worth, one tenth per 100 ms, respecting backpressure; stops when the client goes. */
async function trickle(res: ServerResponse, bytes: Buffer, bytesPerSecond: number): Promise<void> {
  const step = Math.max(1, Math.floor(bytesPerSecond / 10));
  for (let at = 0; at < bytes.length && !res.destroyed; at += step) {
    res.write(bytes.subarray(at, at + step));
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (res.writableNeedDrain) await new Promise((resolve) => (res.once('drain', resolve), res.once('close', resolve)));
  }
  res.end();
}

/** A query string shaped like Discord's signed CDN URLs (ex, is, hm); the emulator does not check it. */
function signature(id: string): string {
  const issued = Math.floor(Date.now() / 1000);
  const hm = createHash('sha256').update(id).digest('hex');
  return `?ex=${(issued + 86_400).toString(16)}&is=${issued.toString(16)}&hm=${hm}&`;
}

function sniffContentType(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (bytes.toString('latin1', 0, 4) === 'GIF8') return 'image/gif';
  return undefined;
}

/** Reads width/height from PNG, JPEG, WebP and GIF headers without decoding; undefined for anything else. */
export function imageSize(b: Buffer): { width: number; height: number } | undefined {
  try {
    const type = sniffContentType(b);
    if (type === 'image/png') return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
    if (type === 'image/gif') return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
    if (type === 'image/webp') return webpSize(b);
    if (type === 'image/jpeg') return jpegSize(b);
  } catch {
    // Truncated header: report no dimensions, as Discord does for files it cannot read.
  }
  return undefined;
}

function webpSize(b: Buffer): { width: number; height: number } | undefined {
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return undefined;
}

function jpegSize(b: Buffer): { width: number; height: number } | undefined {
  let offset = 2;
  while (offset + 9 < b.length) {
    if (b[offset] !== 0xff) return undefined;
    const marker = b[offset + 1] ?? 0;
    const length = b.readUInt16BE(offset + 2);
    // SOF0–SOF15 carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: b.readUInt16BE(offset + 5), width: b.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return undefined;
}
