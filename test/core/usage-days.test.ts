import { describe, expect, it } from 'vitest';
import { usageDays } from '../../src/core/usage-days.js';
import { countsOf, dayFromCounts, EMPTY_DAY, type DayTotals, type SettledJob } from '../../src/core/usage-totals.js';

/** The day the given settled jobs add up to. */
function dayOf(jobs: SettledJob[]): DayTotals {
  const counts = new Map<string, number>();
  for (const job of jobs) for (const [field, by] of countsOf(job)) counts.set(field, (counts.get(field) ?? 0) + by);
  return dayFromCounts(counts);
}

const job = (userId: string, model: string, delivered: number, usd: number, source: 'reported' | 'estimated', roleIds: string[] = []): SettledJob => ({
  jobId: `${userId}-${model}-${delivered}`,
  userId,
  roleIds,
  outcome: 'delivered',
  model,
  delivered,
  cost: { usd, source },
  reachedGateway: true,
});

const TOTALS = [
  dayOf([
    job('ada', 'gpt-image-2', 2, 0.08, 'reported', ['vip']),
    job('bo', 'gpt-image-1', 1, 0.011, 'estimated'),
    job('cy', 'gpt-image-1', 1, 0.011, 'estimated'),
  ]),
  EMPTY_DAY,
  dayOf([job('bo', 'gpt-image-1', 3, 0.033, 'estimated', ['vip'])]),
];
const DAYS = ['2026-11-01', '2026-11-02', '2026-11-03'];

describe('usageDays', () => {
  it("gives the server's images and cost of each day, reported and estimated together, by model and member", () => {
    const days = usageDays(DAYS, TOTALS, { kind: 'server' });
    expect(days.map((d) => [d.day, d.images, d.costUsd])).toEqual([
      ['2026-11-01', 4, 0.102],
      ['2026-11-02', 0, 0],
      ['2026-11-03', 3, 0.033],
    ]);
    expect(days[0]?.models).toEqual({ 'gpt-image-2': { images: 2, jobs: 1, costUsd: 0.08 }, 'gpt-image-1': { images: 2, jobs: 2, costUsd: 0.022 } });
    expect(Object.keys(days[0]?.members ?? {})).toEqual(['ada', 'bo', 'cy']);
  });

  it("gives one member's own days, without models", () => {
    const days = usageDays(DAYS, TOTALS, { kind: 'member', userId: 'bo' });
    expect(days.map((d) => [d.images, d.costUsd, Object.keys(d.members), Object.keys(d.models)])).toEqual([
      [1, 0.011, ['bo'], []],
      [0, 0, [], []],
      [3, 0.033, ['bo'], []],
    ]);
  });

  it("gives a role's days: what members delivered while holding it, and its holders' own figures (no one else's)", () => {
    const days = usageDays(DAYS, TOTALS, { kind: 'role', roleId: 'vip', holders: new Set(['ada', 'bo']) });
    expect(days.map((d) => [d.images, d.costUsd, Object.keys(d.members), Object.keys(d.models)])).toEqual([
      [2, 0.08, ['ada', 'bo'], []],
      [0, 0, [], []],
      [3, 0.033, ['bo'], []],
    ]);
  });

  it('reads a day the store did not return as empty', () => {
    expect(usageDays(['2026-11-01'], [], { kind: 'server' })).toEqual([{ day: '2026-11-01', images: 0, costUsd: 0, models: {}, members: {} }]);
  });
});
