/**
 * /usage's figures (issue 17): a server's images, jobs and cost over the current day, week or month (UTC, as the
 * quotas count them), top members, by model, refusals by reason, failures; optionally one member's own; and the
 * period's jobs as CSV from their usage records. Everything is read from what settled jobs stored
 * (usage-totals.ts, usage-log.ts); nothing is estimated after the fact.
 */
import type { UsageSummary } from '../core/reports.js';
import type { QuotaPeriod } from '../core/quota.js';
import type { RecordStore } from '../ports/record-store.js';
import { roundUsd } from '../core/cost.js';
import { isoDate, periodWindow } from '../core/periods.js';
import type { DayTotals, Sum } from '../core/usage-totals.js';
import { draftsOf, mergeDrafts, NO_DRAFTS } from '../core/draft-counts.js';
import { draftFigures } from '../core/drafts.js';
import { mergeActions, NO_ACTIONS } from '../core/member-actions.js';
import { usageDays, type UsageDaysOf } from '../core/usage-days.js';
import type { UsageTotals } from '../ports/usage-totals.js';
import type { DescribeUsage, JobUsage } from './usage-log.js';

/** One line of the CSV: a job's usage record, or a description's (command `describe`, no image). */
type UsageRow = Omit<JobUsage, 'kind' | 'model' | 'requested' | 'v'> & { kind: JobUsage['kind'] | 'describe'; model?: string | undefined; requested: number };

const describeRow = (d: DescribeUsage): UsageRow => ({
  jobId: d.describeId,
  guildId: d.guildId,
  userId: d.userId,
  kind: 'describe',
  requested: 0,
  delivered: 0,
  promptHelp: d.promptHelp,
  settledAt: d.settledAt,
});

const DAY_MS = 86_400_000;

/** Whose figures: one member's, or those of the members holding a role; neither: the server's. */
export interface UsageFilter {
  userId?: string | undefined;
  roleId?: string | undefined;
}

/** The days of the current `period` (the quota's window) up to now, as `YYYY-MM-DD`. */
export function daysOf(period: QuotaPeriod, now: number): { from: number; days: string[] } {
  const { start } = periodWindow(period, now);
  const days: string[] = [];
  for (let at = start; at <= now; at += DAY_MS) days.push(isoDate(at));
  return { from: start, days };
}

/** See the module comment. */
export class UsageReport {
  readonly #totals: Pick<UsageTotals, 'days'>;
  readonly #jobs: Pick<RecordStore<JobUsage>, 'get'>;
  readonly #describes: Pick<RecordStore<DescribeUsage>, 'get'> | undefined;

  /** `describes`: the descriptions' usage records (prompt help's describe), listed in the CSV beside the jobs. */
  constructor(options: {
    totals: Pick<UsageTotals, 'days'>;
    jobs: Pick<RecordStore<JobUsage>, 'get'>;
    describes?: Pick<RecordStore<DescribeUsage>, 'get'> | undefined;
  }) {
    this.#totals = options.totals;
    this.#jobs = options.jobs;
    this.#describes = options.describes;
  }

  /**
   * The server's figures for the current `period`; with `userId`, that member's jobs only; with `roleId`, the jobs of
   * members who held the role when their job settled (top members among them).
   */
  async summary(guildId: string, period: QuotaPeriod, now: number, filter: UsageFilter = {}): Promise<UsageSummary> {
    const { from, days } = daysOf(period, now);
    const totals = await this.#totals.days(guildId, days);
    if (filter.roleId !== undefined) {
      const summary = summariseRole(from, totals, filter.roleId);
      const holders = new Set(summary.members.map((m) => m.userId));
      return { ...summary, days: usageDays(days, totals, { kind: 'role', roleId: filter.roleId, holders }) };
    }
    const of: UsageDaysOf = filter.userId === undefined ? { kind: 'server' } : { kind: 'member', userId: filter.userId };
    return { ...summarise(from, totals, filter.userId), days: usageDays(days, totals, of) };
  }

  /** The period's jobs that reached the gateway, as CSV (a header line, then one line per job, oldest first). */
  async csv(summary: UsageSummary, filter: UsageFilter = {}): Promise<string> {
    const records = await Promise.all(summary.jobIds.map((id) => this.#row(id)));
    const members = filter.roleId === undefined ? undefined : new Set(summary.members.map((m) => m.userId));
    const wanted = (r: UsageRow) => (filter.userId === undefined || r.userId === filter.userId) && (members === undefined || members.has(r.userId));
    const rows = records.filter((r): r is UsageRow => r !== undefined && wanted(r));
    const header = [
      'job',
      'settled_at',
      'user',
      'command',
      'model',
      'size',
      'quality',
      'asked',
      'delivered',
      'cost_usd',
      'cost_source',
      'request_id',
      'prompt_help_model',
      'prompt_help_cost_usd',
      'prompt_help_cost_source',
      'drafting',
      'high_quality_estimate_usd',
    ];
    const lines = rows.map((r) =>
      [
        csvId(r.jobId),
        csvField(new Date(r.settledAt).toISOString()),
        csvId(r.userId),
        ...[
          r.kind,
          r.model,
          r.size,
          r.quality,
          r.requested,
          r.delivered,
          r.cost?.usd,
          r.cost?.source,
          r.requestId,
          r.promptHelp?.model,
          r.promptHelp?.cost?.usd,
          r.promptHelp?.cost?.source,
          r.drafting?.kind,
          highQualityEstimate(r),
        ].map(csvField),
      ].join(','),
    );
    return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
  }

  /** The CSV line's record of `id`: a job's, else a description's. */
  async #row(id: string): Promise<UsageRow | undefined> {
    const job = await this.#jobs.get(id);
    if (job !== undefined) return job;
    const described = await this.#describes?.get(id);
    return described && describeRow(described);
  }
}

function emptySummary(from: number): UsageSummary {
  return {
    from,
    images: 0,
    jobs: 0,
    reportedUsd: 0,
    estimatedUsd: 0,
    members: [],
    models: [],
    refusals: {},
    failures: 0,
    jobIds: [],
    jobIdsCut: false,
    promptHelpCalls: 0,
    promptHelpUsd: 0,
    days: [],
  };
}

/** Adds `sum` to `key`'s in `map`. */
function mergeSum(map: Map<string, Sum>, key: string, sum: Sum): void {
  const was = map.get(key);
  map.set(key, { images: (was?.images ?? 0) + sum.images, jobs: (was?.jobs ?? 0) + sum.jobs, costUsd: roundUsd((was?.costUsd ?? 0) + sum.costUsd) });
}

/** One member's share of a day: their images, jobs, cost, refusals, prompt help and drafting. */
function addMemberDay(out: UsageSummary, members: Map<string, Sum>, day: DayTotals, userId: string): void {
  out.promptHelpUsd = roundUsd(out.promptHelpUsd + (day.promptHelpMembers[userId] ?? 0));
  out.drafts = mergeDrafts(out.drafts ?? NO_DRAFTS, day.memberDrafts[userId] ?? NO_DRAFTS);
  const own = day.members[userId];
  if (own) mergeSum(members, userId, own);
  const refused = day.refusedMembers[userId];
  if (refused) out.refusals['all'] = (out.refusals['all'] ?? 0) + refused;
}

/** A whole server's day. */
function addServerDay(out: UsageSummary, sums: { members: Map<string, Sum>; models: Map<string, Sum> }, day: DayTotals): void {
  out.images += day.images;
  out.jobs += day.jobs;
  out.reportedUsd = roundUsd(out.reportedUsd + day.reportedUsd);
  out.estimatedUsd = roundUsd(out.estimatedUsd + day.estimatedUsd);
  out.failures += day.failures;
  out.promptHelpCalls += day.promptHelpCalls;
  out.promptHelpUsd = roundUsd(out.promptHelpUsd + day.promptHelpUsd);
  out.drafts = mergeDrafts(out.drafts ?? NO_DRAFTS, day.drafts);
  out.actions = mergeActions(out.actions ?? NO_ACTIONS, day.actions);
  for (const [id, sum] of Object.entries(day.members)) mergeSum(sums.members, id, sum);
  for (const [model, sum] of Object.entries(day.models)) mergeSum(sums.models, model, sum);
  for (const [reason, count] of Object.entries(day.refusals)) out.refusals[reason] = (out.refusals[reason] ?? 0) + count;
}

function summarise(from: number, days: readonly DayTotals[], userId: string | undefined): UsageSummary {
  const members = new Map<string, Sum>();
  const models = new Map<string, Sum>();
  const out = emptySummary(from);
  for (const day of days) {
    out.jobIds.push(...day.jobIds);
    out.jobIdsCut ||= day.jobIdsCut;
    if (userId !== undefined) addMemberDay(out, members, day, userId);
    else addServerDay(out, { members, models }, day);
  }
  if (userId !== undefined) {
    const own = members.get(userId);
    out.images = own?.images ?? 0;
    out.jobs = own?.jobs ?? 0;
  }
  out.members = [...members].map(([id, sum]) => ({ userId: id, ...sum })).sort((a, b) => b.images - a.images || a.userId.localeCompare(b.userId));
  out.models = [...models].map(([model, sum]) => ({ model, ...sum })).sort((a, b) => b.images - a.images || a.model.localeCompare(b.model));
  return out;
}

/**
 * The figures of members who held `roleId` when their jobs settled: their images, jobs and cost, their refusals and
 * drafting, and each of them with all their jobs in the period (a member's figures are not split by the roles they held).
 */
function summariseRole(from: number, days: readonly DayTotals[], roleId: string): UsageSummary {
  const all = summarise(from, days, undefined);
  const holders = new Set(days.flatMap((day) => day.roles[roleId]?.members ?? []));
  const sums = days.map((day) => day.roles[roleId]).filter((r) => r !== undefined);
  const members = all.members.filter((m) => holders.has(m.userId));
  return {
    ...all,
    images: sums.reduce((n, r) => n + r.images, 0),
    jobs: sums.reduce((n, r) => n + r.jobs, 0),
    reportedUsd: 0,
    estimatedUsd: 0,
    costUsd: roundUsd(sums.reduce((n, r) => n + r.costUsd, 0)),
    members,
    models: [],
    refusals: { all: sums.reduce((n, r) => n + r.refused, 0) },
    failures: 0,
    promptHelpCalls: 0,
    promptHelpUsd: 0,
    drafts: draftsOf(
      days.map((day) => day.roleDrafts),
      roleId,
    ),
    actions: undefined,
  };
}

/** What a draft's delivered images would have cost at high quality (as /usage counts it); blank for any other job. */
function highQualityEstimate(row: UsageRow): number | undefined {
  if (row.drafting?.kind !== 'draft') return undefined;
  return roundUsd(draftFigures(row.drafting, { requested: row.requested, delivered: row.delivered, costUsd: 0 }).wouldBeUsd);
}

/**
 * RFC 4180: quoted when it holds a comma, quote or line break. Text that a spreadsheet would read as a formula (a
 * leading = + - @, or a tab or carriage return before one) gets a leading `'` (OWASP's CSV injection advice).
 */
function csvField(value: string | number | undefined): string {
  if (value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * An id of the bot's own (a job id, a snowflake) exactly as it is, so it can be copied into /show: new job ids start
 * with a letter or digit, and one of the older ones that starts with `-` is letters, digits, `-` and `_` only, which
 * no spreadsheet runs. Anything else is text.
 */
function csvId(id: string): string {
  return /^[A-Za-z0-9_-]+$/.test(id) ? id : csvField(id);
}
