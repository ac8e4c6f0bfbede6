/**
 * The days of a period as /usage's chart draws them (issue 32), from the days' totals (usage-totals.ts): each day's
 * images and cost, by model and by member. Whose figures follow /usage's filter: the server's (every model and
 * member), one member's (theirs only, no models: a member's jobs are not counted by model), or a role's (the role's
 * images and cost, its holders' own figures, no models). Pure.
 */
import type { UsageDay } from './reports.js';
import { roundUsd } from './cost.js';
import type { DayTotals, Sum } from './usage-totals.js';

/** Whose days: the server's; one member's; or a role's, with the members who held it during the period. */
export type UsageDaysOf = { kind: 'server' } | { kind: 'member'; userId: string } | { kind: 'role'; roleId: string; holders: ReadonlySet<string> };

const NO_SUMS: Readonly<Record<string, Sum>> = Object.freeze({});

/** One row per day of `days` (`YYYY-MM-DD`), from `totals` (the same days, in order). */
export function usageDays(days: readonly string[], totals: readonly DayTotals[], of: UsageDaysOf): UsageDay[] {
  return days.map((day, index) => {
    const totalsOfDay = totals[index];
    if (totalsOfDay === undefined) return { day, images: 0, costUsd: 0, models: NO_SUMS, members: NO_SUMS };
    return dayOf(day, totalsOfDay, of);
  });
}

function dayOf(day: string, totals: DayTotals, of: UsageDaysOf): UsageDay {
  switch (of.kind) {
    case 'server':
      return { day, images: totals.images, costUsd: roundUsd(totals.reportedUsd + totals.estimatedUsd), models: totals.models, members: totals.members };
    case 'member': {
      const own = totals.members[of.userId];
      return { day, images: own?.images ?? 0, costUsd: own?.costUsd ?? 0, models: NO_SUMS, members: own ? { [of.userId]: own } : NO_SUMS };
    }
    case 'role': {
      const role = totals.roles[of.roleId];
      const members = Object.fromEntries(Object.entries(totals.members).filter(([userId]) => of.holders.has(userId)));
      return { day, images: role?.images ?? 0, costUsd: role?.costUsd ?? 0, models: NO_SUMS, members };
    }
  }
}
