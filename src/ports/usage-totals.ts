import type { DayTotals, SettledJob } from '../core/usage-totals.js';

/** Where days of servers' usage are kept. */
export interface UsageTotals {
  /** Adds a settled job to its server's day (`YYYY-MM-DD`, UTC), atomically. */
  add(guildId: string, day: string, job: SettledJob): Promise<void>;
  /** The server's days, in order (a day without jobs reads as empty). */
  days(guildId: string, days: readonly string[]): Promise<DayTotals[]>;
}
