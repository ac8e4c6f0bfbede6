/**
 * A server's usage per day (issue 17's reports): images, jobs and cost, per member and per model, refusals by
 * reason, failures, and the ids of the jobs whose usage records hold the details. Each settled job adds to a few
 * small counters of its day (issue 28: a write costs the same after 5,000 members as after 5), which the store
 * adds atomically (storage/usage-totals-store.ts), so the figures are exact however many processes share it; /usage
 * reads a day as the {@link DayTotals} its counters add up to and sums the days of a period. Pure (zod only).
 */
import { z } from 'zod';
import { roundUsd } from './cost.js';
import { draftCounts, Drafts, mergeDraftRecords, mergeDrafts, NO_DRAFTS, readDraftCount } from './draft-counts.js';
import type { DraftUse } from './drafts.js';
import { Actions, isAction, mergeActions, NO_ACTIONS, type MemberAction } from './member-actions.js';

const Sum = z.object({ images: z.number().int().nonnegative(), jobs: z.number().int().nonnegative(), costUsd: z.number().nonnegative() });
export type Sum = z.infer<typeof Sum>;

/** A role's day: what members holding it (when their job settled) delivered and had refused, and who they were. */
const RoleDay = Sum.extend({ refused: z.number().int().nonnegative(), members: z.array(z.string()) });
export type RoleDay = z.infer<typeof RoleDay>;

/** Job ids kept per day (for the CSV); beyond it the figures still count, the CSV says it is cut. */
export const MAX_JOB_IDS_PER_DAY = 5_000;

/** One server's day, as /usage reads it (and as one record held it before issue 28). */
export const DayTotals = z.object({
  v: z.literal(1),
  /** Delivered jobs: images posted, and what they cost (reported and estimated apart). */
  images: z.number().int().nonnegative(),
  jobs: z.number().int().nonnegative(),
  reportedUsd: z.number().nonnegative(),
  estimatedUsd: z.number().nonnegative(),
  members: z.record(z.string(), Sum),
  models: z.record(z.string(), Sum),
  /** Refused jobs by the reason the member read (`quota.exceeded`), and the members they came from. */
  refusals: z.record(z.string(), z.number().int().nonnegative()),
  refusedMembers: z.record(z.string(), z.number().int().nonnegative()).default({}),
  /** By the roles the members held (for /usage role:…). */
  roles: z.record(z.string(), RoleDay).default({}),
  failures: z.number().int().nonnegative(),
  /** Jobs that reached the gateway (their usage records), in order. */
  jobIds: z.array(z.string()),
  /** More jobs reached the gateway than jobIds holds. */
  jobIdsCut: z.boolean().default(false),
  /** Prompt help's chat calls (enhance, describe), whatever became of their jobs, and what they cost (issue 29). */
  promptHelpCalls: z.number().int().nonnegative().default(0),
  promptHelpUsd: z.number().nonnegative().default(0),
  /** Prompt help's cost by member. */
  promptHelpMembers: z.record(z.string(), z.number().nonnegative()).default({}),
  /** Drafting (drafts.ts): draft images and HD re-renders delivered, what the drafts would have cost at high quality, and what both cost. */
  drafts: Drafts.default({ jobs: 0, hd: 0, wouldBeUsd: 0, costUsd: 0 }),
  /** The same by member, and by the roles members held (draft-counts.ts). */
  memberDrafts: z.record(z.string(), Drafts).default({}),
  roleDrafts: z.record(z.string(), Drafts).default({}),
  /** Emoji, stickers, showcase posts and styles members made that day. */
  actions: Actions.default(NO_ACTIONS),
});
export type DayTotals = z.infer<typeof DayTotals>;

export const EMPTY_DAY: DayTotals = {
  v: 1,
  images: 0,
  jobs: 0,
  reportedUsd: 0,
  estimatedUsd: 0,
  members: {},
  models: {},
  refusals: {},
  refusedMembers: {},
  roles: {},
  failures: 0,
  jobIds: [],
  jobIdsCut: false,
  promptHelpCalls: 0,
  promptHelpUsd: 0,
  promptHelpMembers: {},
  drafts: NO_DRAFTS,
  memberDrafts: {},
  roleDrafts: {},
  actions: NO_ACTIONS,
};

/** What one settled job adds. */
export interface SettledJob {
  jobId: string;
  userId: string;
  /** The member's roles on the server when the job settled. */
  roleIds?: readonly string[] | undefined;
  /**
   * `described`: a description (prompt help's describe), which counts only its chat call; `action`: one of
   * {@link MEMBER_ACTIONS} (`action`), which counts only itself.
   */
  outcome: 'delivered' | 'refused' | 'failed' | 'cancelled' | 'described' | 'action';
  action?: MemberAction | undefined;
  reason?: string | undefined;
  model?: string | undefined;
  delivered: number;
  cost?: { usd: number; source: 'reported' | 'estimated' } | undefined;
  /** It reached the gateway (it has a usage record). */
  reachedGateway: boolean;
  /** The prompt help chat calls it made (that answered), and what they cost. */
  promptHelp?: { calls: number; usd: number } | undefined;
  /** A draft or an HD re-render of one (drafts.ts), and the images asked for. */
  drafting?: { use: DraftUse; requested: number } | undefined;
}

/** A counter of a day and what a job adds to it (the store adds them atomically: storage/usage-totals-store.ts). */
export type DayCount = [field: string, by: number];

/** Longest model name or refusal reason a counter's name holds (longer ones are cut), so every counter stays small. */
const MAX_NAME = 100;
const name = (text: string): string => text.slice(0, MAX_NAME);
const micros = (usd: number): number => Math.round(usd * 1e6);

/**
 * The day's counters `job` adds to: a few per job (the member's, the model's, each of the member's roles'), however
 * many members the day already counts. Counters are named `kind:id` (`mi:` a member's images, `mj:` jobs, `mu:`
 * cost in millionths of a dollar; `oi:`/`oj:`/`ou:` a model's; `gi:`/`gj:`/`gu:`/`gr:` a role's, `gr:` refused;
 * `gm:role:member` a role's member; `r:` refusals by reason, `rm:` by member; `ph`/`phu` prompt help's calls and cost,
 * `mh:` a member's prompt help cost; `dn`/`dh` draft images and HD re-renders, `dwu`/`dcu` what the drafts would have cost
 * at high quality and what both cost, `mdn:`… a member's and `gdn:`… a role's (draft-counts.ts); `x:` a member action,
 * {@link MEMBER_ACTIONS}) or plain for the day's own figures.
 * The job's id goes to the CSV's list separately (`seq` counts the jobs that reached the gateway, see {@link jobIdCount}).
 */
export function countsOf(job: SettledJob): DayCount[] {
  const counts = new Map<string, number>();
  const add = (field: string, by: number) => counts.set(field, (counts.get(field) ?? 0) + by);
  if (job.reachedGateway) add('seq', 1);
  if (job.promptHelp && job.promptHelp.calls > 0) {
    add('ph', job.promptHelp.calls);
    add('phu', micros(job.promptHelp.usd));
    add(`mh:${job.userId}`, micros(job.promptHelp.usd));
  }
  if (job.outcome === 'action' && job.action) add(`x:${job.action}`, 1);
  if (job.outcome === 'described' || job.outcome === 'action') return [...counts];
  const roles = new Set(job.roleIds ?? []);
  if (job.outcome === 'refused') {
    add(`r:${name(job.reason ?? 'other')}`, 1);
    add(`rm:${job.userId}`, 1);
    for (const roleId of roles) {
      add(`gr:${roleId}`, 1);
      add(`gm:${roleId}:${job.userId}`, 1);
    }
    return [...counts];
  }
  if (job.outcome !== 'delivered') {
    add('failures', 1);
    return [...counts];
  }
  const usd = micros(job.cost?.usd ?? 0);
  add('images', job.delivered);
  add('jobs', 1);
  if (job.cost?.source === 'reported') add('reportedUsd', usd);
  if (job.cost?.source === 'estimated') add('estimatedUsd', usd);
  const sum = (prefix: string, id: string) => {
    add(`${prefix}i:${id}`, job.delivered);
    add(`${prefix}j:${id}`, 1);
    add(`${prefix}u:${id}`, usd);
  };
  sum('m', job.userId);
  sum('o', name(job.model ?? 'unknown'));
  if (job.drafting) {
    const drafted = { ...job.drafting, delivered: job.delivered, costUsd: job.cost?.usd ?? 0, userId: job.userId, roleIds: roles };
    for (const [field, by] of draftCounts(drafted)) add(field, by);
  }
  for (const roleId of roles) {
    sum('g', roleId);
    add(`gm:${roleId}:${job.userId}`, 1);
  }
  return [...counts];
}

/** The counter that places a job's id in the day's list: its value is the job's place (see {@link countsOf}'s `seq`). */
export const jobIdCount = (jobId: string): string => `j:${name(jobId)}`;

/** Whether the job that made `seq` its day's count of jobs that reached the gateway still has its id listed. */
export const jobIdListed = (seq: number): boolean => seq <= MAX_JOB_IDS_PER_DAY;

const sumOf = (record: Record<string, Sum>, id: string): Sum => (record[id] ??= { images: 0, jobs: 0, costUsd: 0 });

/** The day its counters (as {@link countsOf} names them) add up to. */
export function dayFromCounts(counts: ReadonlyMap<string, number>): DayTotals {
  const day: DayTotals = structuredClone(EMPTY_DAY);
  const jobs: [string, number][] = [];
  const role = (roleId: string): RoleDay => (day.roles[roleId] ??= { images: 0, jobs: 0, costUsd: 0, refused: 0, members: [] });
  const addSum = (sum: Sum, kind: string, n: number) => {
    if (kind === 'i') sum.images += n;
    else if (kind === 'j') sum.jobs += n;
    else sum.costUsd = roundUsd(n / 1e6);
  };
  for (const [field, n] of counts) {
    const colon = field.indexOf(':');
    const kind = colon < 0 ? field : field.slice(0, colon);
    const id = field.slice(colon + 1);
    if (kind === 'images' || kind === 'jobs' || kind === 'failures') day[kind] = n;
    else if (kind === 'reportedUsd' || kind === 'estimatedUsd') day[kind] = roundUsd(n / 1e6);
    else if (kind === 'seq') day.jobIdsCut = !jobIdListed(n);
    else if (kind === 'ph') day.promptHelpCalls = n;
    else if (kind === 'phu') day.promptHelpUsd = roundUsd(n / 1e6);
    else if (kind === 'mh') day.promptHelpMembers[id] = roundUsd(n / 1e6);
    else if (readDraftCount(day, kind, id, n)) continue;
    else if (kind === 'x' && isAction(id)) day.actions[id] = n;
    else if (kind === 'r') day.refusals[id] = n;
    else if (kind === 'rm') day.refusedMembers[id] = n;
    else if (kind === 'j') jobs.push([id, n]);
    else if (kind === 'gr') role(id).refused = n;
    else if (kind === 'gm') {
      const at = id.indexOf(':');
      role(id.slice(0, at)).members.push(id.slice(at + 1));
    } else if (/^[mog][iju]$/.test(kind)) {
      const [of, what] = [kind[0], kind.slice(1)];
      addSum(of === 'm' ? sumOf(day.members, id) : of === 'o' ? sumOf(day.models, id) : role(id), what, n);
    }
  }
  day.jobIds = jobs.sort((a, b) => a[1] - b[1]).map(([id]) => id);
  return day;
}

function mergeSums(x: Record<string, Sum>, y: Record<string, Sum>): Record<string, Sum> {
  const out: Record<string, Sum> = { ...x };
  for (const [id, sum] of Object.entries(y)) {
    const was = out[id];
    out[id] = was ? { images: was.images + sum.images, jobs: was.jobs + sum.jobs, costUsd: roundUsd(was.costUsd + sum.costUsd) } : sum;
  }
  return out;
}

function mergeCounts(x: Record<string, number>, y: Record<string, number>): Record<string, number> {
  const out = { ...x };
  for (const [id, n] of Object.entries(y)) out[id] = (out[id] ?? 0) + n;
  return out;
}

function mergeRoles(a: Record<string, RoleDay>, b: Record<string, RoleDay>): Record<string, RoleDay> {
  const roles: Record<string, RoleDay> = { ...a };
  for (const [id, r] of Object.entries(b)) {
    const was = roles[id];
    roles[id] = was
      ? {
          images: was.images + r.images,
          jobs: was.jobs + r.jobs,
          costUsd: roundUsd(was.costUsd + r.costUsd),
          refused: was.refused + r.refused,
          members: [...new Set([...was.members, ...r.members])],
        }
      : r;
  }
  return roles;
}

/** Two records of one day together (a day stored before issue 28 as one record, and its counters since). */
export function mergeDays(a: DayTotals, b: DayTotals): DayTotals {
  const sums = mergeSums;
  const counts = mergeCounts;
  const roles = mergeRoles(a.roles, b.roles);
  return {
    v: 1,
    images: a.images + b.images,
    jobs: a.jobs + b.jobs,
    reportedUsd: roundUsd(a.reportedUsd + b.reportedUsd),
    estimatedUsd: roundUsd(a.estimatedUsd + b.estimatedUsd),
    members: sums(a.members, b.members),
    models: sums(a.models, b.models),
    refusals: counts(a.refusals, b.refusals),
    refusedMembers: counts(a.refusedMembers, b.refusedMembers),
    roles,
    failures: a.failures + b.failures,
    jobIds: [...a.jobIds, ...b.jobIds],
    jobIdsCut: a.jobIdsCut || b.jobIdsCut,
    promptHelpCalls: a.promptHelpCalls + b.promptHelpCalls,
    promptHelpUsd: roundUsd(a.promptHelpUsd + b.promptHelpUsd),
    drafts: mergeDrafts(a.drafts, b.drafts),
    memberDrafts: mergeDraftRecords(a.memberDrafts, b.memberDrafts),
    roleDrafts: mergeDraftRecords(a.roleDrafts, b.roleDrafts),
    actions: mergeActions(a.actions, b.actions),
    promptHelpMembers: Object.fromEntries(
      [...new Set([...Object.keys(a.promptHelpMembers), ...Object.keys(b.promptHelpMembers)])].map((id) => [
        id,
        roundUsd((a.promptHelpMembers[id] ?? 0) + (b.promptHelpMembers[id] ?? 0)),
      ]),
    ),
  };
}
