/**
 * Which limit applies to a member (issue 30): a member override, else the most generous of their roles, else the
 * server's, else the configured default; then the member's perk multiplier (issue 32) on the one that wins. A rule
 * of the quotas, not of a store: the ledgers (src/storage) look the candidates up and ask this.
 */
import type { QuotaLimit, QuotaLimitSource } from './quota.js';
import { multiplyLimit } from './member-perks.js';
import { PERIOD_DAYS } from './periods.js';

/** The limit that applies to a member, and where it came from. */
export interface EffectiveLimit extends QuotaLimit {
  source: QuotaLimitSource;
}

/** The limits found for a member, by level; a level without a (valid) record is undefined or absent. */
export interface LimitCandidates {
  member?: QuotaLimit | undefined;
  roles: readonly QuotaLimit[];
  server?: QuotaLimit | undefined;
  defaults: QuotaLimit;
}

/**
 * Precedence: a member override wins (0 blocks); else the most generous of the member's roles that have limits;
 * else the server default; else the configured default. The member's `multiplier` (their largest perk, 1 without
 * one) then multiplies the limit that won, whichever level it came from; a limit of 0 still blocks.
 */
export function pickEffectiveLimit(candidates: LimitCandidates, multiplier = 1): EffectiveLimit {
  const won = winningLimit(candidates);
  return multiplier === 1 ? won : { ...won, limit: multiplyLimit(won.limit, multiplier) };
}

function winningLimit(candidates: LimitCandidates): EffectiveLimit {
  if (candidates.member) return { ...candidates.member, source: 'member' };
  const role = mostGenerous(candidates.roles);
  if (role) return { ...role, source: 'role' };
  if (candidates.server) return { ...candidates.server, source: 'server' };
  return { ...candidates.defaults, source: 'default' };
}

/**
 * The most generous limit: the highest rate (images per day on average), so 10/day beats 50/month. Equal rates
 * go to the higher absolute limit (a longer period), so the choice never depends on the order of roles.
 */
export function mostGenerous(limits: readonly QuotaLimit[]): QuotaLimit | undefined {
  let best: QuotaLimit | undefined;
  for (const candidate of limits) {
    if (!best) {
      best = candidate;
      continue;
    }
    const rate = candidate.limit / PERIOD_DAYS[candidate.period];
    const bestRate = best.limit / PERIOD_DAYS[best.period];
    if (rate > bestRate || (rate === bestRate && candidate.limit > best.limit)) best = candidate;
  }
  return best;
}
