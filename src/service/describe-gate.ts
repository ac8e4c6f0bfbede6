/**
 * Who may describe now: one describe per member at a time, and a cooldown between a member's describes
 * (DESCRIBE_COOLDOWN_SECONDS, counted from when the last one started). Kept in this process only: members stay on
 * one shard's process, and its entries live no longer than the cooldown (pruned on every check), so the map is as
 * small as the members describing within one cooldown.
 */
import { UserFacingError } from '../errors.js';
import type { Clock } from '../ports/clock.js';

/** See the module comment. */
export class DescribeGate {
  private readonly cooldownMs: number;
  private readonly clock: Clock;
  private readonly running = new Set<string>();
  /** When each member's last describe started. */
  private readonly started = new Map<string, number>();

  constructor(options: { cooldownMs: number; clock: Clock }) {
    this.cooldownMs = options.cooldownMs;
    this.clock = options.clock;
  }

  /**
   * Lets `userId`'s describe start, and returns what to call when it is over.
   * @throws UserFacingError describe.running (one of theirs is under way), describe.cooldown (too soon after the last)
   */
  enter(userId: string): () => void {
    const now = this.clock.now();
    this.prune(now);
    if (this.running.has(userId)) throw new UserFacingError('describe.running');
    const last = this.started.get(userId);
    if (last !== undefined) throw new UserFacingError('describe.cooldown', { resetsAt: last + this.cooldownMs });
    this.running.add(userId);
    if (this.cooldownMs > 0) this.started.set(userId, now);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.running.delete(userId);
    };
  }

  /** Members describing now, and members in their cooldown (what the gate holds). */
  get size(): number {
    return this.running.size + this.started.size;
  }

  private prune(now: number): void {
    // Insertion order is start order: the first entry still cooling down ends the sweep.
    for (const [userId, at] of this.started) {
      if (now - at < this.cooldownMs) break;
      this.started.delete(userId);
    }
  }
}
