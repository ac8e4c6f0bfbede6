/**
 * Servers' daily usage totals (core/usage-totals.ts) in the quota ledger's store, as small counters (issue 28): a
 * settled job adds to its day's few counters with the backend's own atomic increment (HINCRBY in a MULTI on Redis,
 * one `INSERT … ON CONFLICT DO UPDATE SET n = n + …` on PostgreSQL and SQLite), so several processes never lose a
 * job and a write costs the same however many members the day counts; refusals too. A job that reached the
 * gateway gets its place in the day's list of job ids (for the CSV) from the `seq` counter, then a counter of its
 * own holding that place. Kept 400 days.
 *
 * Days written before issue 28 were one JSON record each (`usage-day:`): they are read beside the counters and added
 * to them, never written again, and expire with their time to live; nothing is migrated.
 */
import { countsOf, dayFromCounts, DayTotals, jobIdCount, jobIdListed, mergeDays, type SettledJob } from '../core/usage-totals.js';
import { type UsageTotals } from '../ports/usage-totals.js';
import type { Ledger } from './ledger.js';

const KEEP_MS = 400 * 86_400_000;
const countsKey = (guildId: string, day: string): string => `usage-count:${guildId}:${day}`;
/** A day's one record as it was stored before issue 28. */
const legacyKey = (guildId: string, day: string): string => `usage-day:${guildId}:${day}`;

/** See the module comment. */
export class LedgerUsageTotals implements UsageTotals {
  readonly #ledger: Ledger;

  constructor(ledger: Ledger) {
    this.#ledger = ledger;
  }

  async add(guildId: string, day: string, job: SettledJob): Promise<void> {
    const key = countsKey(guildId, day);
    const counts = countsOf(job);
    const values = await this.#ledger.addCounters(key, counts, KEEP_MS);
    const seq = values[counts.findIndex(([field]) => field === 'seq')];
    if (seq !== undefined && jobIdListed(seq)) await this.#ledger.addCounters(key, [[jobIdCount(job.jobId), seq]], KEEP_MS);
  }

  async days(guildId: string, days: readonly string[]): Promise<DayTotals[]> {
    return Promise.all(
      days.map(async (day) => {
        const [counts, legacy] = await Promise.all([this.#ledger.readCounters(countsKey(guildId, day)), this.#ledger.get(legacyKey(guildId, day))]);
        const counted = dayFromCounts(counts);
        if (legacy === undefined) return counted;
        const parsed = DayTotals.safeParse(legacy);
        return parsed.success ? mergeDays(parsed.data, counted) : counted;
      }),
    );
  }
}
