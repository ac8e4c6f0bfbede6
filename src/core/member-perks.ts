/**
 * Priority perks (issue 32): what a server's settings give a member who boosts it or holds a chosen role. A lane in
 * the job queue (the priority lane starts first, the normal lane keeps a bounded share: {@link PRIORITY_LANE_WEIGHT})
 * and multipliers of the quota and money limits that apply to them (quota-precedence.ts).
 */
import type { Lane, Perk, PrioritySettings } from './server-settings.js';

/** Whose perks an admin sets: a role's, the server boosters', or both at once. */
export interface PerkTarget {
  roleId?: string | undefined;
  boosters: boolean;
}

/**
 * While jobs of both lanes wait, the priority lane starts this many for each one of the normal lane: 3 of every 4,
 * so ordinary members always get at least a quarter of the starts, and a job at the head of the normal lane starts
 * within {@link PRIORITY_LANE_WEIGHT} + 1 starts.
 */
export const PRIORITY_LANE_WEIGHT = 3;

/** A member's perks on one server. */
export interface MemberPerks {
  lane: Lane;
  /** Multiplies the image limit that applies to the member (1: as set). */
  quotaMultiplier: number;
  /** Multiplies the money limit that applies to the member (1: as set). */
  moneyMultiplier: number;
}

/** The perks of a member nobody gave any. */
export const NO_PERKS: MemberPerks = { lane: 'normal', quotaMultiplier: 1, moneyMultiplier: 1 };

/** Whether `perk` gives nothing (the normal lane, both multipliers 1): such a grant is removed rather than kept. */
export function givesNothing(perk: Perk): boolean {
  return perk.lane === NO_PERKS.lane && perk.quotaMultiplier === 1 && perk.moneyMultiplier === 1;
}

/**
 * A member's perks: the priority lane when any of their grants (as a booster, or by one of their roles) gives it,
 * and for each limit the largest multiplier among their grants.
 */
export function perksOf(priority: PrioritySettings, member: { roleIds: readonly string[]; booster?: boolean | undefined }): MemberPerks {
  const grants: Perk[] = priority.roles.filter((grant) => member.roleIds.includes(grant.roleId));
  if (member.booster === true && priority.boosters) grants.push(priority.boosters);
  return grants.reduce<MemberPerks>(
    (perks, grant) => ({
      lane: perks.lane === 'priority' || grant.lane === 'priority' ? 'priority' : 'normal',
      quotaMultiplier: Math.max(perks.quotaMultiplier, grant.quotaMultiplier),
      moneyMultiplier: Math.max(perks.moneyMultiplier, grant.moneyMultiplier),
    }),
    NO_PERKS,
  );
}

/** `limit` times `multiplier`, in whole units (images, millionths of a dollar), never past the largest safe integer; 0 still blocks. */
export function multiplyLimit(limit: number, multiplier: number): number {
  return Math.min(Number.MAX_SAFE_INTEGER, Math.floor(limit * multiplier));
}

/**
 * `priority` with `perk` as the whole grant of `target` (a role's, the boosters', or both), replacing what they had;
 * a perk that gives nothing removes their grant. Roles keep the order they were first given perks in; the result may
 * hold more roles than the settings allow (the caller refuses it).
 */
export function grantPerk(priority: PrioritySettings, target: PerkTarget, perk: Perk): PrioritySettings {
  const keep = !givesNothing(perk);
  const { roleId } = target;
  const roles =
    roleId === undefined
      ? priority.roles
      : priority.roles.some((grant) => grant.roleId === roleId)
        ? priority.roles.flatMap((grant) => (grant.roleId !== roleId ? [grant] : keep ? [{ roleId, ...perk }] : []))
        : [...priority.roles, ...(keep ? [{ roleId, ...perk }] : [])];
  const boosters = target.boosters ? (keep ? perk : undefined) : priority.boosters;
  return boosters === undefined ? { roles } : { boosters, roles };
}
