/**
 * Drafting's counters by member and role (issue 32): a delivered draft or HD re-render adds the same few counters to
 * its member and to each role they held as to the server, however many members the day counts; the day reads them
 * back as each member's and role's drafting figures, and two records of one day add up.
 */
import { describe, expect, it } from 'vitest';
import { countsOf, dayFromCounts, mergeDays, type SettledJob } from '../../src/core/usage-totals.js';

const draft = (jobId: string, userId: string, roleIds: string[]): SettledJob => ({
  jobId,
  userId,
  roleIds,
  outcome: 'delivered',
  model: 'gpt-image-1',
  delivered: 4,
  cost: { usd: 0.04, source: 'estimated' },
  reachedGateway: true,
  drafting: { use: { kind: 'draft', highEstimateUsd: 0.8 }, requested: 4 },
});
const hd = (jobId: string, userId: string, roleIds: string[]): SettledJob => ({
  ...draft(jobId, userId, roleIds),
  delivered: 1,
  cost: { usd: 0.2, source: 'reported' },
  drafting: { use: { kind: 'hd' }, requested: 1 },
});

function dayOf(jobs: SettledJob[]) {
  const counts = new Map<string, number>();
  for (const job of jobs) for (const [field, by] of countsOf(job)) counts.set(field, (counts.get(field) ?? 0) + by);
  return dayFromCounts(counts);
}

describe("drafting's counters by member and role", () => {
  it("adds four counters for the server, four for the member and four for each of the member's roles", () => {
    const fields = countsOf(draft('a', 'alice', ['r1', 'r2'])).map(([field]) => field);
    const drafting = fields.filter((field) => /^[mg]?d(n|h|wu|cu)(:|$)/.test(field));
    expect(drafting.sort()).toEqual(
      ['dcu', 'dn', 'dwu', 'mdcu:alice', 'mdn:alice', 'mdwu:alice', 'gdcu:r1', 'gdn:r1', 'gdwu:r1', 'gdcu:r2', 'gdn:r2', 'gdwu:r2'].sort(),
    );
    expect(countsOf(hd('b', 'bob', [])).filter(([field]) => field.startsWith('mdh:'))).toEqual([['mdh:bob', 1]]);
    // The same few counters for a member the day has never seen, whatever it already counts.
    expect(countsOf(draft('c', 'member-5000', ['r1']))).toHaveLength(countsOf(draft('d', 'alice', ['r1'])).length);
  });

  it("reads each member's and role's drafting figures, and adds two records of a day together", () => {
    const day = dayOf([
      draft('a', 'alice', ['r1']),
      hd('b', 'alice', ['r1']),
      draft('c', 'bob', ['r2']),
      { ...draft('d', 'carol', ['r1']), drafting: undefined },
    ]);
    expect(day.drafts).toEqual({ jobs: 8, hd: 1, wouldBeUsd: 1.6, costUsd: 0.28 });
    expect(day.memberDrafts).toEqual({
      alice: { jobs: 4, hd: 1, wouldBeUsd: 0.8, costUsd: 0.24 },
      bob: { jobs: 4, hd: 0, wouldBeUsd: 0.8, costUsd: 0.04 },
    });
    expect(day.roleDrafts).toEqual({
      r1: { jobs: 4, hd: 1, wouldBeUsd: 0.8, costUsd: 0.24 },
      r2: { jobs: 4, hd: 0, wouldBeUsd: 0.8, costUsd: 0.04 },
    });
    // Refused and failed drafts add nothing for anyone.
    const failed = dayOf([{ ...draft('e', 'alice', ['r1']), outcome: 'failed', delivered: 0 }]);
    expect([failed.memberDrafts, failed.roleDrafts]).toEqual([{}, {}]);

    const merged = mergeDays(day, dayOf([hd('f', 'alice', ['r2'])]));
    expect(merged.memberDrafts['alice']).toEqual({ jobs: 4, hd: 2, wouldBeUsd: 0.8, costUsd: 0.44 });
    expect(merged.roleDrafts['r2']).toEqual({ jobs: 4, hd: 1, wouldBeUsd: 0.8, costUsd: 0.24 });
    expect(merged.memberDrafts['bob']).toEqual(day.memberDrafts['bob']);
  });
});
