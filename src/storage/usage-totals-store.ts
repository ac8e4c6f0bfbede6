/**
 * Servers' daily usage totals (service/usage-totals.ts) in the quota ledger's store: each settled job is added by
 * one atomic update of its day's record (a Lua compare-and-set on Redis, a conditional statement on PostgreSQL, an
 * immediate transaction on SQLite), so several processes never lose a job. Kept 400 days.
 */
import { addJob, DayTotals, EMPTY_DAY, type SettledJob, type UsageTotals } from '../service/usage-totals.js';
import type { Ledger } from './ledger.js';

const KEEP_MS = 400 * 86_400_000;
const keyOf = (guildId: string, day: string): string => `usage-day:${guildId}:${day}`;

/** See the module comment. */
export class LedgerUsageTotals implements UsageTotals {
  readonly #ledger: Ledger;

  constructor(ledger: Ledger) {
    this.#ledger = ledger;
  }

  async add(guildId: string, day: string, job: SettledJob): Promise<void> {
    await this.#ledger.update(keyOf(guildId, day), (current) => {
      // An unreadable day starts again rather than losing every later job of it.
      const parsed = DayTotals.safeParse(current);
      return { result: undefined, write: { value: addJob(parsed.success ? parsed.data : EMPTY_DAY, job), ttlMs: KEEP_MS } };
    });
  }

  async days(guildId: string, days: readonly string[]): Promise<DayTotals[]> {
    const read = await Promise.all(days.map((day) => this.#ledger.get(keyOf(guildId, day))));
    return read.map((value) => {
      const parsed = DayTotals.safeParse(value);
      return parsed.success ? parsed.data : EMPTY_DAY;
    });
  }
}
