/**
 * Drafting's counters in a server's usage day (issue 32; usage-totals.ts): the server's, each member's and each
 * role's draft images and HD re-renders delivered, what the drafts would have cost at high quality and what both
 * cost. A delivered job adds to four counters of the server's, four of its member's and four of each role the member
 * held, however many members the day counts. Pure (zod only).
 */
import { z } from 'zod';
import { roundUsd } from './cost.js';
import { draftFigures, type DraftUse } from './drafts.js';

export const Drafts = z.object({
  jobs: z.number().int().nonnegative(),
  hd: z.number().int().nonnegative(),
  wouldBeUsd: z.number().nonnegative(),
  costUsd: z.number().nonnegative(),
});
export type Drafts = z.infer<typeof Drafts>;
export const NO_DRAFTS: Drafts = Object.freeze({ jobs: 0, hd: 0, wouldBeUsd: 0, costUsd: 0 });

/** A day's drafting figures: the server's, and by member and role (the roles a member held when the job settled). */
export interface DraftDay {
  drafts: Drafts;
  memberDrafts: Record<string, Drafts>;
  roleDrafts: Record<string, Drafts>;
}

/** What a delivered job of `userId` (holding `roleIds`), drafted as `use`, adds. */
export interface DraftedJob {
  use: DraftUse;
  requested: number;
  delivered: number;
  costUsd: number;
  userId: string;
  roleIds: ReadonlySet<string>;
}

const micros = (usd: number): number => Math.round(usd * 1e6);

/**
 * The counters a delivered draft or HD re-render adds to, as `[field, by]`: `dn` draft images, `dh` HD re-renders,
 * `dwu` what the drafts would have cost at high quality and `dcu` what both cost (millionths of a dollar) for the
 * server; the same prefixed `m` and followed by `:member` for the member (`mdn:…`), prefixed `g` and followed by
 * `:role` for each of their roles (`gdn:…`).
 */
export function draftCounts(job: DraftedJob): [string, number][] {
  const figures = draftFigures(job.use, { requested: job.requested, delivered: job.delivered, costUsd: job.costUsd });
  const values: [string, number][] = [
    [job.use.kind === 'hd' ? 'dh' : 'dn', job.delivered],
    ['dwu', micros(figures.wouldBeUsd)],
    ['dcu', micros(figures.costUsd)],
  ];
  const scoped = (prefix: string, id: string) => values.map(([field, by]): [string, number] => [`${prefix}${field}:${id}`, by]);
  return [...values, ...scoped('m', job.userId), ...[...job.roleIds].flatMap((roleId) => scoped('g', roleId))];
}

const DRAFT_KIND = /^([mg]?)d(n|h|wu|cu)$/;

/** Adds the counter `kind:id` (as {@link draftCounts} names it) holding `n` to `day`; false when it is not drafting's. */
export function readDraftCount(day: DraftDay, kind: string, id: string, n: number): boolean {
  const match = DRAFT_KIND.exec(kind);
  if (!match) return false;
  const [, scope, what] = match;
  const drafts = scope === 'm' ? (day.memberDrafts[id] ??= { ...NO_DRAFTS }) : scope === 'g' ? (day.roleDrafts[id] ??= { ...NO_DRAFTS }) : day.drafts;
  if (what === 'n') drafts.jobs = n;
  else if (what === 'h') drafts.hd = n;
  else if (what === 'wu') drafts.wouldBeUsd = roundUsd(n / 1e6);
  else drafts.costUsd = roundUsd(n / 1e6);
  return true;
}

/** Two days' drafting figures together. */
export function mergeDrafts(a: Drafts, b: Drafts): Drafts {
  return { jobs: a.jobs + b.jobs, hd: a.hd + b.hd, wouldBeUsd: roundUsd(a.wouldBeUsd + b.wouldBeUsd), costUsd: roundUsd(a.costUsd + b.costUsd) };
}

/** Two days' drafting figures by member or role together. */
export function mergeDraftRecords(a: Record<string, Drafts>, b: Record<string, Drafts>): Record<string, Drafts> {
  const out: Record<string, Drafts> = { ...a };
  for (const [id, drafts] of Object.entries(b)) out[id] = mergeDrafts(out[id] ?? NO_DRAFTS, drafts);
  return out;
}

/** The drafting figures of `id` in `records` (a period's days by member or role), added up. */
export function draftsOf(records: readonly Record<string, Drafts>[], id: string): Drafts {
  return records.reduce<Drafts>((sum, record) => mergeDrafts(sum, record[id] ?? NO_DRAFTS), NO_DRAFTS);
}
