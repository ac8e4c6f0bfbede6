/**
 * A server's usage per day (issue 17's reports): images, jobs and cost, per member and per model, refusals by
 * reason, failures, and the ids of the jobs whose usage records hold the details. Each settled job adds itself
 * to its day atomically in the store (storage/usage-totals-store.ts, over the quota ledger's atomic update), so
 * the figures are exact however many processes share it; /usage sums the days of a period. Pure (zod only).
 */
import { z } from 'zod';
import { roundUsd } from './cost.js';

const Sum = z.object({ images: z.number().int().nonnegative(), jobs: z.number().int().nonnegative(), costUsd: z.number().nonnegative() });
export type Sum = z.infer<typeof Sum>;

/** A role's day: what members holding it (when their job settled) delivered and had refused, and who they were. */
const RoleDay = Sum.extend({ refused: z.number().int().nonnegative(), members: z.array(z.string()) });
export type RoleDay = z.infer<typeof RoleDay>;

/** Job ids kept per day (for the CSV); beyond it the figures still count, the CSV says it is cut. */
export const MAX_JOB_IDS_PER_DAY = 5_000;

/** One server's day. */
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
};

/** What one settled job adds. */
export interface SettledJob {
  jobId: string;
  userId: string;
  /** The member's roles on the server when the job settled. */
  roleIds?: readonly string[] | undefined;
  outcome: 'delivered' | 'refused' | 'failed' | 'cancelled';
  reason?: string | undefined;
  model?: string | undefined;
  delivered: number;
  cost?: { usd: number; source: 'reported' | 'estimated' } | undefined;
  /** It reached the gateway (it has a usage record). */
  reachedGateway: boolean;
}

const add = (sum: Sum | undefined, images: number, usd: number): Sum => ({
  images: (sum?.images ?? 0) + images,
  jobs: (sum?.jobs ?? 0) + 1,
  costUsd: roundUsd((sum?.costUsd ?? 0) + usd),
});

/** The day with `job` added. */
export function addJob(day: DayTotals, job: SettledJob): DayTotals {
  const next: DayTotals = {
    ...day,
    members: { ...day.members },
    models: { ...day.models },
    refusals: { ...day.refusals },
    refusedMembers: { ...day.refusedMembers },
    roles: { ...day.roles },
  };
  /** The role's day with this job: delivered (`images`, `usd`) or refused. */
  const role = (roleId: string, delivered: { images: number; usd: number } | 'refused'): RoleDay => {
    const was = day.roles[roleId];
    const members = was?.members ?? [];
    const sum =
      delivered === 'refused' ? { images: was?.images ?? 0, jobs: was?.jobs ?? 0, costUsd: was?.costUsd ?? 0 } : add(was, delivered.images, delivered.usd);
    return {
      ...sum,
      refused: (was?.refused ?? 0) + (delivered === 'refused' ? 1 : 0),
      members: members.includes(job.userId) ? members : [...members, job.userId],
    };
  };
  if (job.reachedGateway) {
    if (day.jobIds.length < MAX_JOB_IDS_PER_DAY) next.jobIds = [...day.jobIds, job.jobId];
    else next.jobIdsCut = true;
  }
  if (job.outcome === 'refused') {
    const reason = job.reason ?? 'other';
    next.refusals[reason] = (day.refusals[reason] ?? 0) + 1;
    next.refusedMembers[job.userId] = (day.refusedMembers[job.userId] ?? 0) + 1;
    for (const roleId of job.roleIds ?? []) next.roles[roleId] = role(roleId, 'refused');
    return next;
  }
  if (job.outcome !== 'delivered') {
    next.failures = day.failures + 1;
    return next;
  }
  const usd = job.cost?.usd ?? 0;
  next.images = day.images + job.delivered;
  next.jobs = day.jobs + 1;
  if (job.cost?.source === 'reported') next.reportedUsd = roundUsd(day.reportedUsd + usd);
  if (job.cost?.source === 'estimated') next.estimatedUsd = roundUsd(day.estimatedUsd + usd);
  next.members[job.userId] = add(day.members[job.userId], job.delivered, usd);
  const model = job.model ?? 'unknown';
  next.models[model] = add(day.models[model], job.delivered, usd);
  for (const roleId of job.roleIds ?? []) next.roles[roleId] = role(roleId, { images: job.delivered, usd });
  return next;
}

/** Where days of servers' usage are kept. */
export interface UsageTotals {
  /** Adds a settled job to its server's day (`YYYY-MM-DD`, UTC), atomically. */
  add(guildId: string, day: string, job: SettledJob): Promise<void>;
  /** The server's days, in order (a day without jobs reads as empty). */
  days(guildId: string, days: readonly string[]): Promise<DayTotals[]>;
}
