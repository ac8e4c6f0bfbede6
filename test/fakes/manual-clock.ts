/**
 * A clock the test sets by hand (the service and the quota ledger take it by injection).
 */
import type { Clock } from '../../src/ports/clock.js';

export class ManualClock implements Clock {
  #now: number;

  constructor(start: number | string) {
    this.#now = typeof start === 'string' ? Date.parse(start) : start;
  }

  now(): number {
    return this.#now;
  }

  set(at: number | string): void {
    this.#now = typeof at === 'string' ? Date.parse(at) : at;
  }

  advance(ms: number): void {
    this.#now += ms;
  }
}
