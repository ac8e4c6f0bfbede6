/**
 * Lease timers on a {@link ManualClock}: `advance` moves the clock, runs each timer that falls due in time order and
 * awaits what it returns (the renewal it started), so a test moves hours of renewals forward deterministically.
 */
import type { LeaseTimers } from '../../src/service/lease-renewal.js';
import type { ManualClock } from './manual-clock.js';

export class ManualTimers implements LeaseTimers {
  readonly #clock: ManualClock;
  readonly #scheduled = new Map<number, { at: number; fn: () => Promise<void> }>();
  #nextId = 1;

  constructor(clock: ManualClock) {
    this.#clock = clock;
  }

  setTimeout(fn: () => Promise<void>, ms: number): unknown {
    const id = this.#nextId++;
    this.#scheduled.set(id, { at: this.#clock.now() + ms, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    if (typeof handle === 'number') this.#scheduled.delete(handle);
  }

  /** Timers waiting to fire. */
  get pending(): number {
    return this.#scheduled.size;
  }

  async advance(ms: number): Promise<void> {
    const target = this.#clock.now() + ms;
    for (;;) {
      const due = [...this.#scheduled.entries()].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined) break;
      this.#scheduled.delete(due[0]);
      this.#clock.set(due[1].at);
      await due[1].fn();
    }
    this.#clock.set(target);
  }
}
