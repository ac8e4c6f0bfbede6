/**
 * Members' describes per period (service/describe-cap.ts), as counters in the quota ledger's store: one counter per
 * member in the window's record, added to with the backend's own atomic increment (HINCRBY on Redis, one
 * `INSERT … ON CONFLICT DO UPDATE` on PostgreSQL and SQLite), so describes in several processes are counted exactly.
 * A window's record is kept a day past its end.
 */
import type { DescribeCounts } from '../ports/describe-counts.js';
import type { Clock } from '../ports/clock.js';
import type { Ledger } from './ledger.js';

const DAY_MS = 86_400_000;

/** See the module comment. */
export class LedgerDescribeCounts implements DescribeCounts {
  readonly #ledger: Ledger;
  readonly #clock: Clock;

  constructor(ledger: Ledger, clock: Clock) {
    this.#ledger = ledger;
    this.#clock = clock;
  }

  async add(guildId: string, userId: string, window: { label: string; end: number }, by: number): Promise<number> {
    const keepMs = Math.max(DAY_MS, window.end - this.#clock.now() + DAY_MS);
    const [count] = await this.#ledger.addCounters(`describe-count:${guildId}:${window.label}`, [[userId, by]], keepMs);
    return count ?? 0;
  }
}
