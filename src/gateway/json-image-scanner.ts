/**
 * A streaming scanner for JSON image answers, which are almost all base64: each `"b64_json"` value is decoded as it
 * arrives, and everything else is copied into a small JSON text (each image replaced by a placeholder) to be
 * JSON.parsed at the end. Holding whole answers as text made many concurrent answers cost gigabytes and block the
 * event loop (figures in docs/benchmarks.md).
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const EQUALS = 0x3d;
const KEY = Buffer.from('b64_json');
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
/**
 * Told about each `b64_json` value while it is decoded: `data` any number of times with the next decoded bytes,
 * then `end` with all of the value's bytes. Values are numbered in answer order. Must not throw.
 */
export interface ScanListener {
  data(index: number, bytes: Buffer): void;
  end(index: number, bytes: Buffer): void;
}

/** JSON forbids raw control characters in strings; JSON.parse rejected them, so do we. */
// eslint-disable-next-line no-control-regex -- matching the control characters JSON forbids is this pattern's purpose
const CONTROL = /[\u0000-\u001f]/;
/** Characters Node's base64 decoder would skip anyway; dropped before aligning to 4 (url-safe `-_` are kept). */
const NOT_BASE64 = /[^A-Za-z0-9+/\-_=]+/g;
/** JSON escapes that may appear in base64: `\/` (some encoders escape slashes) and line breaks (line-wrapped). */
const ESCAPES: Readonly<Record<string, string>> = { '/': '/', n: '', r: '', t: '' };
const PLACEHOLDER = /^__bin:(\d+)$/;
/**
 * The most bytes of a value turned into one string at a time. A stream read hands over all it has buffered as one
 * chunk (128 KiB and more when the event loop is busy), and V8 places a string of 128 KiB or more in its large-object
 * space: fresh pages, mapped for each string and unmapped after it, each page faulted in on first touch (about
 * 10 µs a page on the bench's virtual machine, which made the scanner run at 140 MB/s instead of 1.1 GB/s).
 * Strings of 64 KiB are made in the young generation, whose pages are reused.
 */
const TEXT_SLICE_BYTES = 64 * 1024;

/** What a scanned body yields: the small JSON text and the decoded `b64_json` values its placeholders point at. */
export interface ScannedBody {
  json: string;
  images: Buffer[];
}

/** The index into {@link ScannedBody.images} when `value` is a placeholder the scanner wrote, else undefined. */
export function binaryIndex(value: string): number | undefined {
  const match = PLACEHOLDER.exec(value);
  return match ? Number(match[1]) : undefined;
}

/**
 * Splits a JSON body, pushed chunk by chunk, into a small JSON text and decoded `b64_json` bytes: every
 * `"b64_json"` string value becomes one Buffer, and is replaced in the text by a placeholder (`"__bin:0"`, see
 * {@link binaryIndex}); everything else (created, usage, url items, error objects, …) is copied as is.
 *
 * It is not a validator: it only tracks whether it is inside a string (and after a backslash), the bytes of the
 * last string against `b64_json`, and whether that string was followed by a colon. The structure is kept intact in
 * the small text, so JSON.parse still rejects whatever was malformed, including a body cut off mid-value.
 * `"b64_json"` written with escapes in the key is not recognised; its value then stays in the small text (still
 * correct, only not cheaper).
 */
export class JsonImageScanner {
  private readonly listener: ScanListener | undefined;
  /**
   * One allocation for all the decoded images (see the constructor); `used` bytes of it are taken. The current
   * value starts at `valueStart` and `contiguous` says whether all of its pieces were taken from it in a row.
   */
  private readonly arena: Buffer | undefined;
  private used = 0;
  private valueStart = 0;
  private contiguous = true;

  /**
   * @param listener - told about each `b64_json` value as it is decoded: `data` with every decoded piece, then
   *   `end` with the whole value, numbered as in {@link ScannedBody.images}; must not throw.
   * @param bodyBytes - the body's declared length, when known. Base64 decodes to at most 3/4 of its length, so one
   *   Buffer of that size holds every image the body can contain: each image is then a view of it, with no
   *   allocation per chunk and no copy to join an image's pieces (fewer, larger buffers for the garbage collector).
   * @param allocate - supplies that Buffer (at least the size asked for); a new one by default.
   */
  constructor(listener?: ScanListener, bodyBytes?: number, allocate: (bytes: number) => Buffer = (bytes) => Buffer.allocUnsafe(bytes)) {
    this.listener = listener;
    const size = JsonImageScanner.arenaBytes(bodyBytes);
    if (size !== undefined) this.arena = allocate(size).subarray(0, size);
  }

  /** The size of the one Buffer the images of a body of `bodyBytes` are decoded into; undefined without a declared length. */
  static arenaBytes(bodyBytes: number | undefined): number | undefined {
    return bodyBytes !== undefined && bodyBytes > 0 ? Math.floor((bodyBytes * 3) / 4) : undefined;
  }

  private mode: 'json' | 'string' | 'image' = 'json';
  /** In a string: the previous byte was an unconsumed backslash. */
  private escaped = false;
  /** In a string: how many bytes matched `b64_json` so far, -1 once it cannot match. */
  private keyMatch = 0;
  /** Outside strings: whether the last tokens were the key `"b64_json"`, and then its colon. */
  private afterKey: 'none' | 'key' | 'colon' = 'none';
  private readonly decoder = new TextDecoder();
  private json = '';
  private readonly images: Buffer[] = [];
  /** The decoded pieces of the current value, and its 0–3 base64 characters still waiting for a full quad. */
  private pieces: Buffer[] = [];
  private rest = '';
  /** The current value's last chunk ended in a backslash whose escaped character is in the next chunk. */
  private pendingEscape = false;
  private broken = false;

  /** Scans one chunk; the work is proportional to the chunk, never to the body. */
  push(chunk: Buffer): void {
    if (this.broken) return;
    let from = 0; // first byte not yet copied into the small text
    let i = 0;
    while (i < chunk.length) {
      if (this.mode === 'image') {
        const end = this.decodeUntilQuote(chunk, i);
        from = end; // the closing quote belongs to the small text
        i = end + 1;
        continue;
      }
      if (this.opensImage(chunk[i] ?? 0)) {
        this.valueStart = this.used;
        this.contiguous = true;
        this.copy(chunk.subarray(from, i + 1));
        this.json += `__bin:${this.images.length}`;
        this.mode = 'image';
        from = i + 1;
      }
      i += 1;
    }
    if (this.mode !== 'image' && from < chunk.length) this.copy(chunk.subarray(from));
  }

  /** The scan result, or undefined when a `b64_json` value held something JSON or base64 cannot (a malformed body). */
  end(): ScannedBody | undefined {
    if (this.broken) return undefined;
    return { json: this.json + this.decoder.decode(), images: this.images };
  }

  private copy(bytes: Buffer): void {
    // Cuts happen next to ASCII quotes only, so a multi-byte character is never split between two copies.
    this.json += this.decoder.decode(bytes, { stream: true });
  }

  /** Advances the string/key state by one byte outside image values; true when it opens a `b64_json` value. */
  private opensImage(byte: number): boolean {
    if (this.mode === 'string') {
      if (this.escaped) {
        this.escaped = false;
        this.keyMatch = -1;
      } else if (byte === BACKSLASH) this.escaped = true;
      else if (byte === QUOTE) {
        this.mode = 'json';
        this.afterKey = this.keyMatch === KEY.length ? 'key' : 'none';
      } else this.keyMatch = this.keyMatch >= 0 && byte === KEY[this.keyMatch] ? this.keyMatch + 1 : -1;
      return false;
    }
    if (byte === QUOTE) {
      const opens = this.afterKey === 'colon';
      this.afterKey = 'none';
      if (!opens) {
        this.mode = 'string';
        this.keyMatch = 0;
      }
      return opens;
    }
    if (byte === COLON) this.afterKey = this.afterKey === 'key' ? 'colon' : 'none';
    else if (!WHITESPACE.has(byte)) this.afterKey = 'none';
    return false;
  }

  /** Decodes the image value from `start` up to its closing quote or the chunk's end; returns that index. */
  private decodeUntilQuote(chunk: Buffer, start: number): number {
    const quote = chunk.indexOf(QUOTE, start);
    const closing = quote !== -1;
    const end = closing ? quote : chunk.length;
    let at = start;
    do {
      const to = Math.min(at + TEXT_SLICE_BYTES, end);
      this.decodeText(chunk.toString('latin1', at, to), closing && to === end);
      at = to;
    } while (at < end);
    if (closing) {
      const image = this.arena && this.contiguous ? this.arena.subarray(this.valueStart, this.used) : Buffer.concat(this.pieces);
      this.listener?.end(this.images.length, image);
      this.images.push(image);
      this.pieces = [];
      this.mode = 'json';
    }
    return end;
  }

  private decodeText(raw: string, closing: boolean): void {
    let text = this.pendingEscape ? `\\${raw}` : raw;
    this.pendingEscape = false;
    if (text.includes('\\')) text = this.unescape(text, closing);
    if (this.broken) return;
    const all = this.rest + text;
    // Base64 decodes in quads of 4 characters; a quad split across chunks waits for the next one.
    const cut = closing ? all.length : all.length - (all.length % 4);
    if (cut > 0 && !this.decodeClean(all, cut, closing)) {
      this.decodeDirty(text, closing);
      return;
    }
    this.rest = closing ? '' : all.slice(cut);
  }

  /**
   * The fast path, for text made only of base64 characters (what gateways send): decodes `all[0, cut)` and keeps
   * it when the decoded length proves no character was skipped. Node's decoder skips anything outside the alphabet
   * and stops at a `=` before the end, and either makes the output shorter than 3 bytes per 4 characters, except
   * for one skipped character in a length of 4k+1, which is left to the slow path.
   */
  private decodeClean(all: string, cut: number, closing: boolean): boolean {
    let length = cut;
    // The value's closing `=` padding (one or two) ends it and decodes to nothing.
    if (closing && length % 4 === 0 && all.charCodeAt(length - 1) === EQUALS) length -= all.charCodeAt(length - 2) === EQUALS ? 2 : 1;
    if (length % 4 === 1) return false;
    const expected = Math.floor((length * 3) / 4);
    const fromArena = this.arena !== undefined && this.used + expected <= this.arena.length;
    const out = fromArena ? this.arena.subarray(this.used, this.used + expected) : Buffer.allocUnsafe(expected);
    if (out.write(length === all.length ? all : all.slice(0, length), 0, expected, 'base64') !== expected) return false;
    if (fromArena) this.used += expected;
    else this.contiguous = false;
    this.addPiece(out);
    return true;
  }

  /**
   * The slow path: checks for control characters and drops what Node's decoder would skip before aligning to 4
   * (the 0–3 characters kept from the last chunk were not checked yet, so they are checked with this one).
   */
  private decodeDirty(text: string, closing: boolean): void {
    const unchecked = this.rest + text;
    if (CONTROL.test(unchecked)) this.broken = true;
    if (this.broken) return;
    const all = unchecked.replace(NOT_BASE64, '');
    const cut = closing ? all.length : all.length - (all.length % 4);
    if (cut > 0) {
      this.contiguous = false;
      this.addPiece(Buffer.from(all.slice(0, cut), 'base64'));
    }
    this.rest = closing ? '' : all.slice(cut);
  }

  private addPiece(piece: Buffer): void {
    if (piece.length === 0) return;
    this.pieces.push(piece);
    this.listener?.data(this.images.length, piece);
  }

  private unescape(text: string, closing: boolean): string {
    return text.replace(/\\([\s\S]?)/g, (_match, char: string) => {
      const replacement = ESCAPES[char];
      if (replacement !== undefined) return replacement;
      // A trailing backslash escapes the first byte of the next chunk; before the closing quote it escapes the quote.
      if (char === '' && !closing) this.pendingEscape = true;
      else this.broken = true;
      return '';
    });
  }
}
