/**
 * Waiting jobs of one process, in the order they started waiting, for the PostgreSQL job slots: a freed slot
 * (a NOTIFY) wakes the one waiting longest, instead of every waiter trying at once; a waiter that finds its member's
 * slots full passes the wake to the next, at most once round the waiters. Without a wake, a waiter tries again after
 * its back-off (a slot freed without a NOTIFY: a process that was killed).
 */
import { setTimeout as sleep } from 'node:timers/promises';

interface Waiter {
  wake(budget: number): void;
}

export class SlotWakeups {
  readonly #waiting: Waiter[] = [];

  /** Waiters now. */
  get size(): number {
    return this.#waiting.length;
  }

  /**
   * Waits for a wake, `ms` at most, or until `signal` aborts (resolving, not rejecting: the caller checks it).
   * Resolves with the wake's budget (how many waiters it may still reach, this one included), 0 when none came.
   */
  async wait(ms: number, signal: AbortSignal): Promise<number> {
    const timer = new AbortController();
    let woken = 0;
    const waiter: Waiter = {
      wake: (budget) => {
        woken = budget;
        timer.abort();
      },
    };
    this.#waiting.push(waiter);
    const stop = () => timer.abort();
    signal.addEventListener('abort', stop, { once: true });
    try {
      await sleep(ms, undefined, { signal: timer.signal }).catch(() => undefined);
    } finally {
      signal.removeEventListener('abort', stop);
      const at = this.#waiting.indexOf(waiter);
      if (at >= 0) this.#waiting.splice(at, 1);
    }
    // Aborted after a wake: the wake is passed on rather than lost.
    if (woken > 0 && signal.aborted) {
      this.wake(woken);
      return 0;
    }
    return woken;
  }

  /** Wakes the waiter waiting longest, which may pass the wake on to `budget - 1` more. */
  wake(budget: number = this.#waiting.length): void {
    if (budget <= 0) return;
    const first = this.#waiting.shift();
    first?.wake(budget);
  }
}
