/**
 * A weighted semaphore: holders together take at most `capacity` units; the rest wait in arrival order (no
 * overtaking, so a large request is not starved by small ones). A single request larger than the capacity is
 * let through alone.
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

  /** Resolves with a release function once `weight` units are free; release is safe to call more than once. */
  async acquire(weight = 1): Promise<() => void> {
    if (this.waiters.length === 0 && this.fits(weight)) this.take(weight);
    else await new Promise<void>((grant) => this.waiters.push({ weight, grant }));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= weight;
      this.holders -= 1;
      this.grantWaiters();
    };
  }

  /** Units taken by holders now. */
  get inUse(): number {
    return this.used;
  }

  /** Requests waiting for units. */
  get waiting(): number {
    return this.waiters.length;
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
