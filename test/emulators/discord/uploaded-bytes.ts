/**
 * An uploaded file's bytes as they arrived: the parser's chunks (views of the socket's reads), joined into one
 * Buffer only when something first reads them whole. Joining copies every byte into fresh memory, which Discord's
 * own servers, streaming uploads to storage, do not do while the request is open; on a virtual machine whose first
 * touch of a page costs about 11 µs, the copy took the emulator 9 ms per MB before it could answer an upload
 * (docs/benchmarks.md, "Notes on 2026-11-27, sixth session"), time the benchmark counted as the bot's. The size and
 * the header (content type, dimensions) are read without joining.
 */
import type { RecordedFile } from './types.js';

/** Bytes of a file's head enough for any header the emulator reads (PNG, GIF, WebP, and JPEG up to its frame header). */
const HEAD_BYTES = 64 * 1024;

/** See the module comment. */
export class UploadedBytes {
  readonly size: number;
  // Private fields, so two records of the same bytes compare equal however they arrived.
  #chunks: Buffer[] | undefined;
  #joined: Buffer | undefined;

  constructor(chunks: Buffer[]) {
    this.size = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    if (chunks.length === 1) this.#joined = chunks[0];
    else this.#chunks = chunks;
  }

  /** All the bytes as one Buffer (joined on the first call, the same Buffer after). */
  whole(): Buffer {
    if (this.#joined === undefined) {
      this.#joined = Buffer.concat(this.#chunks ?? [], this.size);
      this.#chunks = undefined;
    }
    return this.#joined;
  }

  /** The first bytes (up to 64 KiB), copying no more than those. */
  head(): Buffer {
    if (this.#joined !== undefined) return this.#joined.subarray(0, HEAD_BYTES);
    const pieces: Buffer[] = [];
    let length = 0;
    for (const chunk of this.#chunks ?? []) {
      if (length >= HEAD_BYTES) break;
      pieces.push(chunk);
      length += chunk.length;
    }
    return Buffer.concat(pieces, Math.min(length, HEAD_BYTES));
  }

  /** The bytes as they arrived, for writing out without joining them. */
  pieces(): readonly Buffer[] {
    return this.#joined === undefined ? (this.#chunks ?? []) : [this.#joined];
  }
}

/** A file part as the emulator records it: its bytes read whole only when `bytes` is first read. */
export function recordedFile(field: string, filename: string, contentType: string, content: UploadedBytes): RecordedFile {
  return {
    field,
    filename,
    contentType,
    size: content.size,
    content,
    get bytes() {
      return content.whole();
    },
  };
}
