/**
 * A per-member rate limit: at most `count` actions per member in any `windowMs` (a sliding window of their start
 * times). Kept in this process only, as the describe gate is: a server's interactions reach one shard's process, and a
 * member's times live no longer than the window (pruned on every check), so the map holds only members active within it.
 */
import { UserFacingError } from '../errors.js';
import type { UserErrorIdentifier } from '../core/member-messages.js';
import type { Clock } from '../ports/clock.js';

/** See the module comment. */
export class MemberRateLimit {
  readonly #count: number;
  readonly #windowMs: number;
  readonly #clock: Clock;
  readonly #refusal: UserErrorIdentifier;
  /** Each member's action times within the window, oldest first. */
  readonly #times = new Map<string, number[]>();

  constructor(options: { count: number; windowMs: number; clock: Clock; refusal: UserErrorIdentifier }) {
    this.#count = options.count;
    this.#windowMs = options.windowMs;
    this.#clock = options.clock;
    this.#refusal = options.refusal;
  }

  /**
   * Counts one action of `memberId` now.
   * @throws UserFacingError (the refusal given) with `resetsAt`, when they already had `count` within the window
   */
  take(memberId: string): void {
    const now = this.#clock.now();
    this.#prune(now);
    const times = this.#times.get(memberId) ?? [];
    const oldest = times[0];
    if (times.length >= this.#count && oldest !== undefined) throw new UserFacingError(this.#refusal, { resetsAt: oldest + this.#windowMs });
    this.#times.set(memberId, [...times, now]);
  }

  /** Members with actions within the window (what the limit holds). */
  get size(): number {
    return this.#times.size;
  }

  #prune(now: number): void {
    for (const [memberId, times] of this.#times) {
      const kept = times.filter((at) => now - at < this.#windowMs);
      if (kept.length === 0) this.#times.delete(memberId);
      else if (kept.length < times.length) this.#times.set(memberId, kept);
    }
  }
}
