/**
 * /usage's drafting figures for a member and a role (issue 32): a member's report tells what their drafts saved, a
 * role's what those of members holding it saved; the CSV says which jobs were drafts or HD re-renders and what a
 * draft's images would have cost at high quality, in columns after the older ones.
 */
import { describe, expect, it } from 'vitest';
import { countsOf, dayFromCounts, type DayTotals, type SettledJob } from '../../src/core/usage-totals.js';
import { UsageReport } from '../../src/service/usage-report.js';
import type { JobUsage } from '../../src/service/usage-log.js';
import { renderRoleUsage, renderUsage } from '../../src/discord/views/usage-text.js';

const NOW = Date.UTC(2026, 10, 26, 12);

const settled = (jobId: string, userId: string, roleIds: string[], drafting: SettledJob['drafting'], usd: number): SettledJob => ({
  jobId,
  userId,
  roleIds,
  outcome: 'delivered',
  model: 'gpt-image-1',
  delivered: drafting?.requested ?? 1,
  cost: { usd, source: 'estimated' },
  reachedGateway: true,
  drafting,
});

function dayOf(jobs: SettledJob[]): DayTotals {
  const counts = new Map<string, number>();
  for (const job of jobs) for (const [field, by] of countsOf(job)) counts.set(field, (counts.get(field) ?? 0) + by);
  return dayFromCounts(counts);
}

const usage = (jobId: string, userId: string, extra: Partial<JobUsage>): JobUsage => ({
  v: 1,
  jobId,
  guildId: 'g',
  userId,
  kind: 'imagine',
  model: 'gpt-image-1',
  requested: 1,
  delivered: 1,
  settledAt: NOW,
  ...extra,
});

/** Two days: alice (role r1) drafts 4 and makes one HD; bob (r2) drafts 2 the next day; carol drafts nothing. */
function report(records: JobUsage[] = []) {
  const days = [
    dayOf([
      settled('a', 'alice', ['r1'], { use: { kind: 'draft', highEstimateUsd: 0.8 }, requested: 4 }, 0.04),
      settled('b', 'alice', ['r1'], { use: { kind: 'hd' }, requested: 1 }, 0.2),
    ]),
    dayOf([settled('c', 'bob', ['r2'], { use: { kind: 'draft', highEstimateUsd: 0.4 }, requested: 2 }, 0.02), settled('d', 'carol', ['r2'], undefined, 0.17)]),
  ];
  const byId = new Map(records.map((r) => [r.jobId, r]));
  return new UsageReport({ totals: { days: () => Promise.resolve(days) }, jobs: { get: (id: string) => Promise.resolve(byId.get(id)) } });
}

const draftsLine = (text: string) => text.split('\n').find((line) => line.startsWith('Drafts saved'));

describe("/usage's drafting figures for a member and a role", () => {
  it("sums a member's drafting over the period's days and shows it in their report", async () => {
    const alice = await report().summary('g', 'week', NOW, { userId: 'alice' });
    expect(alice.drafts).toEqual({ jobs: 4, hd: 1, wouldBeUsd: 0.8, costUsd: 0.24 });
    expect(draftsLine(renderUsage(alice, 'week', 'alice'))).toBe('Drafts saved $0.5600 against high quality (4 drafts, 1 made HD)');
    const carol = await report().summary('g', 'week', NOW, { userId: 'carol' });
    expect(draftsLine(renderUsage(carol, 'week', 'carol'))).toBeUndefined();
  });

  it("sums the drafting of the role's holders and shows it in the role's report", async () => {
    const r2 = await report().summary('g', 'week', NOW, { roleId: 'r2' });
    expect(r2.drafts).toEqual({ jobs: 2, hd: 0, wouldBeUsd: 0.4, costUsd: 0.02 });
    expect(draftsLine(renderRoleUsage(r2, 'week', 'r2'))).toBe('Drafts saved $0.3800 against high quality (2 drafts, 0 made HD)');
    const server = await report().summary('g', 'week', NOW);
    expect(server.drafts).toEqual({ jobs: 6, hd: 1, wouldBeUsd: 1.2, costUsd: 0.26 });
  });

  it("adds the drafting and high quality estimate columns after the older ones: a draft's delivered share, nothing for HD", async () => {
    const records = [
      usage('a', 'alice', {
        requested: 4,
        delivered: 3,
        quality: 'low',
        cost: { usd: 0.03, source: 'estimated' },
        drafting: { kind: 'draft', highEstimateUsd: 0.8 },
      }),
      usage('b', 'alice', { kind: 'edit', quality: 'high', cost: { usd: 0.2, source: 'estimated' }, drafting: { kind: 'hd' } }),
      usage('d', 'carol', { cost: { usd: 0.17, source: 'estimated' } }),
    ];
    const text = await report(records).csv({ jobIds: ['a', 'b', 'd'] } as Parameters<UsageReport['csv']>[0]);
    const [header, ...rows] = text
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    expect(header?.slice(0, 3)).toEqual(['job', 'settled_at', 'user']);
    expect(header?.slice(12)).toEqual(['prompt_help_model', 'prompt_help_cost_usd', 'prompt_help_cost_source', 'drafting', 'high_quality_estimate_usd']);
    expect(rows.map((row) => row.slice(-2))).toEqual([
      ['draft', '0.6'],
      ['hd', ''],
      ['', ''],
    ]);
  });
});
