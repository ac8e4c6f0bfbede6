/**
 * Renders a model's SVG to a PNG within bounds (issue 28). The document is sanitised first (svg-sanitise.ts) and
 * drawn at a size the bot chooses, whatever it declares: the root's width and height are rewritten so its long
 * side is at most 2048 pixels (1024 when it has filters, whose cost grows with the area), and sharp is given the
 * same pixel limit, so a declared 294912-pixel side never reaches librsvg. Each render:
 *
 * - has its bytes admitted to the job's memory (the memory budget) before it starts: the rendering's RGBA pixels
 *   twice (librsvg's surface and the encoded PNG, at most as large), or four more times with filters (their
 *   intermediate surfaces), and the SVG's own bytes;
 * - is drawn in a child process (svg-rasterise.ts) killed after SVG_RENDER_TIMEOUT_SECONDS. sharp's own timeout is
 *   no bound: it is checked between the strips libvips draws, and librsvg may draw a filtered document in one. The
 *   child takes none of this process's libuv threads, so renders cannot starve dns.lookup or file reads (a worker
 *   thread would: workers share the process's libuv pool, and sharp holds one of its threads per pipeline);
 * - runs under a small process-wide limit (SVG_RENDER_CONCURRENCY, default 1): one child, one core, at a time.
 *   Renders wait their turn member by member (RenderSlots), so one member's many SVG jobs delay another member's
 *   render by at most one of theirs.
 *
 * A document refused by the sanitiser, or a render that fails or runs out of time, throws SvgRenderError: the job
 * ends with a message and nothing is delivered or charged.
 */
import type { GeneratedImage } from '../core/images.js';
import { rasteriseSvg } from './svg-rasterise.js';
import { resizedSvg, sanitiseSvg, SvgRefusedError, type SvgChanges } from '../core/svg-sanitise.js';

/** The rendering's long side when the SVG says nothing larger: as large as a standard image. */
const MIN_LONG_SIDE = 1024;
/** And at most this, however large the SVG says it is. */
export const MAX_LONG_SIDE = 2048;
/** With filters: their cost grows with the area they cover. */
const MAX_FILTERED_LONG_SIDE = 1024;

/** Options of {@link SvgRenderer}. */
export interface SvgRendererOptions {
  /** Renders at once in this process. @default 1 */
  concurrency?: number | undefined;
  /** The longest one render may run. @default 10 */
  timeoutSeconds?: number | undefined;
}

/** Why an SVG was not rendered: refused by the sanitiser, failed, or out of time. */
export class SvgRenderError extends Error {
  override readonly name = 'SvgRenderError';
}

/** A rendering, the sanitised original to post beside it, and what the sanitiser changed. */
export interface SvgRendering {
  image: GeneratedImage;
  original: GeneratedImage;
  changes: SvgChanges;
}

/** Takes room for `bytes` in the job's memory and resolves with the room given (at most one answer's). */
export type AdmitBytes = (bytes: number) => Promise<number>;

/**
 * At most `capacity` holders at once; the rest wait per member, served in turn: the member who waited first gets the
 * next slot, then goes to the back of the line if they have more waiting.
 */
export class RenderSlots {
  private readonly capacity: number;
  private running = 0;
  /** Members with waiting renders, in their turn order (a Map keeps insertion order). */
  private readonly lines = new Map<string, (() => void)[]>();

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /** Renders waiting for a slot. */
  get waiting(): number {
    let count = 0;
    for (const line of this.lines.values()) count += line.length;
    return count;
  }

  /** Resolves with a release function once `member` has a slot. */
  async acquire(member: string): Promise<() => void> {
    if (this.running < this.capacity && this.lines.size === 0) this.running += 1;
    else
      await new Promise<void>((grant) => {
        const line = this.lines.get(member);
        if (line) line.push(grant);
        else this.lines.set(member, [grant]);
      });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      this.next();
    };
  }

  private next(): void {
    while (this.running < this.capacity) {
      const first = this.lines.entries().next();
      if (first.done) return;
      const [member, line] = first.value;
      const grant = line.shift();
      // Served: to the back of the line with what they still have waiting.
      this.lines.delete(member);
      if (line.length > 0) this.lines.set(member, line);
      if (!grant) continue;
      this.running += 1;
      grant();
    }
  }
}

/** The process's SVG renders; see the module comment. */
export class SvgRenderer {
  private readonly slots: RenderSlots;
  private readonly timeoutSeconds: number;

  constructor(options: SvgRendererOptions = {}) {
    this.slots = new RenderSlots(options.concurrency ?? 1);
    this.timeoutSeconds = options.timeoutSeconds ?? 10;
  }

  /** Renders waiting for a slot. */
  get waiting(): number {
    return this.slots.waiting;
  }

  /**
   * Sanitises and renders `svg` for `member`; `admit` is given the bytes the render will hold (`held`: what the job
   * holds already, added) before it starts.
   * @throws SvgRenderError
   */
  async render(svg: GeneratedImage, admit: AdmitBytes, held = 0, member = ''): Promise<SvgRendering> {
    let sanitised;
    try {
      sanitised = sanitiseSvg(svg.bytes);
    } catch (err) {
      if (err instanceof SvgRefusedError) throw new SvgRenderError(`SVG refused: ${err.message}`, { cause: err });
      throw err;
    }
    const size = renderSize(sanitised.width, sanitised.height, sanitised.filtered ? MAX_FILTERED_LONG_SIDE : MAX_LONG_SIDE);
    const text = Buffer.from(resizedSvg(sanitised, size.width, size.height), 'utf8');
    const original = Buffer.from(sanitised.text, 'utf8');
    const needed = held + renderBytes(size, sanitised.filtered) + text.length + original.length;
    const room = await admit(needed);
    if (room < needed) throw new SvgRenderError(`an SVG render needs ${needed} bytes, more than one answer's ${room}`);
    const release = await this.slots.acquire(member);
    try {
      const drawn = await rasteriseSvg(text, {
        maxPixels: MAX_LONG_SIDE * MAX_LONG_SIDE,
        timeoutMs: this.timeoutSeconds * 1000,
        // A PNG is at most its raw pixels, a filter byte a row and zlib's framing.
        maxOutputBytes: size.width * size.height * 4 + size.height + 1024 * 1024,
      });
      return {
        image: { bytes: drawn.bytes, format: 'png', width: drawn.width, height: drawn.height },
        original: { bytes: original, format: 'svg', width: sanitised.width, height: sanitised.height },
        changes: sanitised.changes,
      };
    } catch (err) {
      throw new SvgRenderError(`SVG render failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    } finally {
      release();
    }
  }
}

/** The rendering's size: the declared one scaled so its long side is between 1024 and `maxLongSide`. */
export function renderSize(width: number, height: number, maxLongSide: number): { width: number; height: number } {
  const longSide = Math.max(width, height, 1);
  const target = Math.min(Math.max(longSide, MIN_LONG_SIDE), maxLongSide);
  const scale = target / longSide;
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** What a render of `size` holds at most (see the module comment). */
export function renderBytes(size: { width: number; height: number }, filtered: boolean): number {
  return size.width * size.height * 4 * (filtered ? 6 : 2);
}
