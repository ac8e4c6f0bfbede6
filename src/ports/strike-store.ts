import type { MemberStrikes, ServerStrikes, StrikeMember, StrikeOutcome, StrikePolicy } from '../core/moderation-strikes.js';

/** Where strikes are kept: each change is one atomic update of the member's record, then of the server's. */
export interface StrikeStore {
  /** The member's record (undefined when they have none, or it cannot be read). */
  read(member: StrikeMember): Promise<MemberStrikes | undefined>;
  /** Adds a strike at `now` under `policy`, atomically across processes, and counts it in the server's record. */
  strike(member: StrikeMember, now: number, policy: StrikePolicy): Promise<StrikeOutcome>;
  /** Deletes the member's record (their strikes and pause) and their pause from the server's; returns what it held. */
  clear(member: StrikeMember, now: number): Promise<MemberStrikes | undefined>;
  /** The server's record. */
  server(guildId: string): Promise<ServerStrikes | undefined>;
}
