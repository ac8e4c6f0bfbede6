/**
 * The usage CSV a spreadsheet opens safely (issue 29): text that would run as a formula (a leading = + - @, a tab or a
 * carriage return) is defused with a leading `'`, while the bot's own ids are written exactly as they are, so a job
 * id can be copied into /show even when it starts with `-`; new job ids never do.
 */
import { describe, expect, it } from 'vitest';
import { newJobId } from '../../src/service/job-id.js';
import { UsageReport } from '../../src/service/usage-report.js';
import { type UsageSummary } from '../../src/core/reports.js';
import type { JobUsage } from '../../src/service/usage-log.js';

const job = (jobId: string, extra: Partial<JobUsage>): JobUsage => ({
  v: 1,
  jobId,
  guildId: 'g',
  userId: '123456789012345678',
  kind: 'imagine',
  model: 'gpt-image-2',
  requested: 1,
  delivered: 1,
  settledAt: Date.UTC(2026, 10, 26),
  ...extra,
});

async function csvOf(jobs: JobUsage[]): Promise<string[][]> {
  const byId = new Map(jobs.map((j) => [j.jobId, j]));
  const report = new UsageReport({ totals: { days: () => Promise.resolve([]) }, jobs: { get: (id: string) => Promise.resolve(byId.get(id)) } });
  const summary = { jobIds: jobs.map((j) => j.jobId) } as unknown as UsageSummary;
  const text = await report.csv(summary);
  return text
    .trimEnd()
    .split('\r\n')
    .slice(1)
    .map((line) => line.split(','));
}

describe('the usage CSV', () => {
  it('defuses text a spreadsheet would run, a leading tab and carriage return included', async () => {
    const rows = await csvOf([
      job('a1', { model: '=HYPERLINK("x")', requestId: '@SUM(A1)' }),
      job('a2', { model: '+1', requestId: '\t=1' }),
      job('a3', { model: '-2', requestId: '\r=1' }),
    ]);
    expect(rows.map((r) => [r[4], r[11]])).toEqual([
      ['"\'=HYPERLINK(""x"")"', "'@SUM(A1)"],
      ["'+1", "'\t=1"],
      ["'-2", '"\'\r=1"'],
    ]);
  });

  it('writes job and member ids exactly as they are, one starting with - included', async () => {
    const rows = await csvOf([job('-Ab_c9dEfG12', {})]);
    expect(rows[0]![0]).toBe('-Ab_c9dEfG12');
    expect(rows[0]![2]).toBe('123456789012345678');
  });

  it('makes job ids that start with a letter or a digit', () => {
    for (let i = 0; i < 2000; i++) expect(newJobId()).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]{11}$/);
  });
});
