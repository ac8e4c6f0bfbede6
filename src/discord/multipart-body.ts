/**
 * A multipart/form-data body (RFC 7578) that can still grow while it is being sent, and can be sent again from its
 * first byte (a rate-limited or retried request resends it whole), for posting images while the gateway's answer
 * is still arriving. form-data and undici's FormData take whole values (or one-shot streams) and cannot be
 * replayed, so the framing (a boundary line, two headers, CRLF) is written here.
 */
import { randomBytes } from 'node:crypto';

const CRLF = '\r\n';

/** A file part's bytes: the pieces so far, replaced by the whole once known; `done` when no more will come. */
interface FileSegment {
  pieces: Buffer[];
  whole: Buffer | undefined;
  done: boolean;
}

type Segment = Buffer | FileSegment;

/**
 * Iterating it yields the body from its start, waiting for parts still to come. Nothing is copied: the body is a
 * list of the Buffers it was given, and a finished file's pieces may be swapped for its whole bytes (the same
 * bytes, held once) without disturbing a reader that is halfway through them.
 */
export class MultipartBody implements AsyncIterable<Buffer> {
  readonly boundary = `----imagine-bot-${randomBytes(12).toString('hex')}`;
  private readonly segments: Segment[] = [];
  private file: FileSegment | undefined;
  private state: 'open' | 'closed' | 'failed' = 'open';
  private failure: unknown;
  private bytes = 0;
  private wake: (() => void) | undefined;
  private changed: Promise<void> = this.nextChange();

  /** The Content-Type header that goes with this body. */
  get contentType(): string {
    return `multipart/form-data; boundary=${this.boundary}`;
  }

  /** Bytes appended so far (the Content-Length, once closed). */
  get length(): number {
    return this.bytes;
  }

  /** Adds a text part. */
  field(name: string, value: string, contentType?: string): void {
    this.startPart(name, undefined, contentType);
    this.push(Buffer.from(value + CRLF));
  }

  /** Opens a file part; its bytes follow through {@link writeFile}. */
  beginFile(name: string, filename: string, contentType: string): void {
    this.startPart(name, filename, contentType);
    this.file = { pieces: [], whole: undefined, done: false };
    this.segments.push(this.file);
    this.notify();
  }

  /** Appends bytes to the open file part. */
  writeFile(bytes: Buffer): void {
    const file = this.openFile();
    file.pieces.push(bytes);
    this.bytes += bytes.length;
    this.notify();
  }

  /**
   * Ends the open file part. `whole`, if given, must be exactly its bytes in one Buffer: the pieces are then let go.
   */
  endFile(whole?: Buffer): void {
    const file = this.openFile();
    if (whole) {
      const written = file.pieces.reduce((sum, piece) => sum + piece.length, 0);
      if (whole.length !== written) throw new RangeError(`whole file is ${whole.length} bytes, ${written} were written`);
      file.whole = whole;
      file.pieces = [];
    }
    file.done = true;
    this.file = undefined;
    this.push(Buffer.from(CRLF));
  }

  /** Writes the closing boundary: the body is complete. */
  close(): void {
    if (this.file) throw new Error('a file part is still open');
    this.push(Buffer.from(`--${this.boundary}--${CRLF}`));
    this.state = 'closed';
    this.notify();
  }

  /** Makes every reader fail with `err` (the request is cut off before its end, so nothing is posted). */
  fail(err: unknown): void {
    if (this.state !== 'open') return;
    this.state = 'failed';
    this.failure = err;
    this.notify();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    let index = 0;
    // Within a file segment: bytes already yielded, and the next piece while it is still in pieces.
    let offset = 0;
    let piece = 0;
    for (;;) {
      if (this.state === 'failed') throw this.failure;
      const segment = this.segments[index];
      if (segment === undefined) {
        if (this.state === 'closed') return;
        await this.changed;
        continue;
      }
      if (Buffer.isBuffer(segment)) {
        index += 1;
        yield segment;
        continue;
      }
      if (segment.whole) {
        const rest = segment.whole.subarray(offset);
        index += 1;
        offset = 0;
        piece = 0;
        if (rest.length > 0) yield rest;
        continue;
      }
      const next = segment.pieces[piece];
      if (next !== undefined) {
        piece += 1;
        offset += next.length;
        yield next;
      } else if (segment.done) {
        index += 1;
        offset = 0;
        piece = 0;
      } else {
        await this.changed;
      }
    }
  }

  private startPart(name: string, filename: string | undefined, contentType: string | undefined): void {
    if (this.state !== 'open') throw new Error(`the body is ${this.state}`);
    if (this.file) throw new Error('a file part is still open');
    let head = `--${this.boundary}${CRLF}Content-Disposition: form-data; name="${escapeQuoted(name)}"`;
    if (filename !== undefined) head += `; filename="${escapeQuoted(filename)}"`;
    if (contentType !== undefined) head += `${CRLF}Content-Type: ${contentType}`;
    this.push(Buffer.from(head + CRLF + CRLF));
  }

  private openFile(): FileSegment {
    if (!this.file || this.state !== 'open') throw new Error('no file part is open');
    return this.file;
  }

  private push(bytes: Buffer): void {
    this.segments.push(bytes);
    this.bytes += bytes.length;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.changed = this.nextChange();
    wake?.();
  }

  private nextChange(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = resolve;
    });
  }
}

/** A name or filename inside quotes, escaped as browsers do (WHATWG HTML "multipart/form-data encoding algorithm"). */
function escapeQuoted(value: string): string {
  return value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}
