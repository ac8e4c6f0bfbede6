/** The quotas' vocabulary: periods, who is counted, limits, what a member has left (images and money). */
import type { MemberPerks } from './member-perks.js';

/** Quota period, calendar-aligned in UTC. */
export type QuotaPeriod = 'day' | 'week' | 'month';

/** Who is asking, and where: the key of a member's quota. */
export interface QuotaSubject {
  /** The server, or null for direct messages and user-installed contexts (configuration defaults apply). */
  guildId: string | null;
  userId: string;
  /** The member's role ids in that server (empty outside servers). */
  roleIds: readonly string[];
  /** The member boosts that server (Discord's `premium_since`), so the server's booster perks apply to them. */
  booster?: boolean | undefined;
  /**
   * What the server's settings give the member (member-perks.ts): their queue lane, and the multipliers of the limit
   * that applies to them. Resolved by the service from the settings; absent: none.
   */
  perks?: MemberPerks | undefined;
}

/** Where a member's effective limit came from. */
export type QuotaLimitSource = 'member' | 'role' | 'server' | 'default';

/** A member's quota as it stands now. */
export interface QuotaStatus {
  limit: number;
  period: QuotaPeriod;
  /** Committed images in the current period. */
  used: number;
  /** Images held by unsettled reservations. */
  reserved: number;
  /** max(0, limit − used − reserved). */
  remaining: number;
  /** Start of the next period (ms since epoch). */
  resetsAt: number;
  source: QuotaLimitSource;
}

export type ReserveOutcome = { ok: true; reservationId: string; status: QuotaStatus } | { ok: false; status: QuotaStatus };

/** What an admin can set a limit on. */
export type QuotaTarget =
  { kind: 'server'; guildId: string } | { kind: 'role'; guildId: string; roleId: string } | { kind: 'member'; guildId: string; userId: string };

/** A stored limit. */
export interface QuotaLimit {
  limit: number;
  period: QuotaPeriod;
}

/** A money limit (issue 17): US dollars per period. */
export interface MoneyLimit {
  usd: number;
  period: QuotaPeriod;
}

/** A member's spending against the money limit that applies to them, as it stands now (USD). */
export interface SpendStatus extends MoneyLimit {
  /** Committed cost in the current period (reported by the gateway, or estimated from its usage figures). */
  spent: number;
  /** Estimates held by unsettled jobs. */
  reserved: number;
  /** max(0, usd − spent − reserved). */
  remaining: number;
  /** Start of the next period (ms since epoch). */
  resetsAt: number;
  source: Exclude<QuotaLimitSource, 'default'>;
}

/** `held`: the estimate is held (a money limit applies), so the job renews, commits or refunds it. */
export type SpendOutcome = { ok: true; held: boolean } | { ok: false; status: SpendStatus };
