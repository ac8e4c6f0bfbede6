/**
 * A counting semaphore: at most `permits` holders at once, the rest wait in arrival order.
 */
export class Semaphore {
  private available: number;
  private readonly waiters: (() => void)[] = [];

  constructor(permits: number) {
    if (!Number.isInteger(permits) || permits < 1) throw new RangeError('permits must be a positive integer');
    this.available = permits;
  }

  /** Resolves with a release function once a permit is free; release is safe to call more than once. */
  async acquire(): Promise<() => void> {
    if (this.available > 0) this.available -= 1;
    else await new Promise<void>((resolve) => this.waiters.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next();
      else this.available += 1;
    };
  }

  /** Holders waiting for a permit. */
  get waiting(): number {
    return this.waiters.length;
  }
}
