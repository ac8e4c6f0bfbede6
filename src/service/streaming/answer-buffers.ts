/**
 * Reuses the Buffers gateway answers are decoded into: a fresh multi-megabyte Buffer per answer was most of the
 * bot's full garbage collections under load (V8 starts one per 64 MB of new external memory; figures in
 * docs/benchmarks.md). Every image of an answer is a view of its Buffer, so a job gives its Buffers back only once
 * nothing can read those images any more.
 */

/**
 * Buffers taken for one job, all given back at once when it is over: delivered or failed, its upload finished or
 * abandoned, its gateway call settled. (sharp, which reads the images on its own threads, keys its operation cache
 * by argument objects it holds on to, so a Buffer reused at the same address never yields the previous image's
 * result; a test keeps that true.)
 */
export interface AnswerBufferLease {
  /** A Buffer of at least `bytes` bytes (contents undefined), the lease's until it is released. A function property: it may be passed on unbound. */
  take: (bytes: number) => Buffer;
  /** Gives every Buffer taken back to the pool; takes after this allocate without pooling. Safe to call twice. */
  release(): void;
}

/** Free Buffers, kept up to a byte cap. */
export class AnswerBufferPool {
  private readonly maxFreeBytes: number;
  private readonly free: Buffer[] = [];
  private freeBytes = 0;

  /** @param maxFreeBytes - most bytes kept while unused (what a quiet bot holds on to). */
  constructor(maxFreeBytes: number) {
    this.maxFreeBytes = maxFreeBytes;
  }

  /** Bytes held while unused. */
  get idleBytes(): number {
    return this.freeBytes;
  }

  lease(): AnswerBufferLease {
    let taken: Buffer[] | undefined = [];
    return {
      take: (bytes) => {
        const buffer = this.take(bytes);
        taken?.push(buffer);
        return buffer;
      },
      release: () => {
        for (const buffer of taken ?? []) this.give(buffer);
        taken = undefined;
      },
    };
  }

  /**
   * The smallest free Buffer that holds `bytes` without being more than twice as large (a 13 MB Buffer is not
   * spent on a 2 MB answer), else a new one.
   */
  private take(bytes: number): Buffer {
    let best: Buffer | undefined;
    for (const buffer of this.free) {
      if (buffer.length >= bytes && buffer.length <= 2 * bytes && (!best || buffer.length < best.length)) best = buffer;
    }
    if (!best) return Buffer.allocUnsafeSlow(bytes);
    this.free.splice(this.free.indexOf(best), 1);
    this.freeBytes -= best.length;
    return best;
  }

  /** Keeps a Buffer for later unless that would pass the cap; the largest are kept first. */
  private give(buffer: Buffer): void {
    this.free.push(buffer);
    this.freeBytes += buffer.length;
    this.free.sort((a, b) => b.length - a.length);
    while (this.freeBytes > this.maxFreeBytes) this.freeBytes -= this.free.pop()?.length ?? this.freeBytes;
  }
}
