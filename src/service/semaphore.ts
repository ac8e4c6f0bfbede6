/**
 * A weighted semaphore: holders together take at most `capacity` units; the rest wait in arrival order (no
 * overtaking, so a large request is not starved by small ones). A single request larger than the capacity is
 * let through alone. A wait can be abandoned (an AbortSignal), and a holder can give back part of what it holds.
 */
export class Semaphore {
  private readonly capacity: number;
  private used = 0;
  private holders = 0;
  private readonly waiters: { weight: number; grant: () => void }[] = [];

  constructor(capacity: number) {
    if (!Number.isFinite(capacity) || capacity <= 0) throw new RangeError('capacity must be a positive number');
    this.capacity = capacity;
  }

  /**
   * Resolves with a release function once `weight` units are free; release is safe to call more than once. Rejects
   * with the signal's reason when it aborts first (the wait leaves the line, holding nothing).
   */
  async acquire(weight = 1, signal?: AbortSignal): Promise<PartialRelease> {
    signal?.throwIfAborted();
    if (this.waiters.length === 0 && this.fits(weight)) this.take(weight);
    else await this.wait(weight, signal);
    return this.releaser(weight);
  }

  /** Takes `weight` units only if they are free now, without waiting (and never ahead of those waiting). */
  tryAcquire(weight: number): PartialRelease | undefined {
    if (this.waiters.length > 0 || !this.fits(weight)) return undefined;
    this.take(weight);
    return this.releaser(weight);
  }

  /** Units taken by holders now. */
  get inUse(): number {
    return this.used;
  }

  /** Requests waiting for units. */
  get waiting(): number {
    return this.waiters.length;
  }

  private wait(weight: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        weight,
        grant: () => {
          signal?.removeEventListener('abort', abandon);
          resolve();
        },
      };
      const abandon = () => {
        const at = this.waiters.indexOf(waiter);
        if (at < 0) return;
        this.waiters.splice(at, 1);
        // Those behind it may fit now.
        this.grantWaiters();
        reject(signal?.reason instanceof Error ? signal.reason : new Error('the wait was abandoned', { cause: signal?.reason }));
      };
      this.waiters.push(waiter);
      signal?.addEventListener('abort', abandon, { once: true });
    });
  }

  private releaser(weight: number): PartialRelease {
    let held = weight;
    let done = false;
    return (units?: number) => {
      if (done) return;
      const given = units === undefined ? held : Math.min(Math.max(0, units), held);
      held -= given;
      this.used -= given;
      if (held === 0) {
        done = true;
        this.holders -= 1;
      }
      this.grantWaiters();
    };
  }

  private fits(weight: number): boolean {
    return this.holders === 0 || this.used + weight <= this.capacity;
  }

  private take(weight: number): void {
    this.used += weight;
    this.holders += 1;
  }

  private grantWaiters(): void {
    for (let next = this.waiters[0]; next && this.fits(next.weight); next = this.waiters[0]) {
      this.waiters.shift();
      this.take(next.weight);
      next.grant();
    }
  }
}

/** Gives back `units` of what was taken (all that is left without it); safe to call more than once. */
export type PartialRelease = (units?: number) => void;
