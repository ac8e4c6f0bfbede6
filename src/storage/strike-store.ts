/**
 * Moderation strikes (core/moderation-strikes.ts) in the ledger's store: a strike is one atomic update of the
 * member's record (a Lua compare-and-set on Redis, a conditional statement on PostgreSQL, an immediate transaction on
 * SQLite), which decides the pause, so several processes sharing the store never lose a strike or pause a member
 * twice; it is then counted by one atomic update of the server's record (who is paused, strikes and pauses per day).
 */
import {
  MemberStrikes,
  memberKeepMs,
  ServerStrikes,
  STRIKE_DAYS_KEPT,
  withoutPause,
  withServerStrike,
  withStrike,
  type StrikeMember,
  type StrikeOutcome,
  type StrikePolicy,
} from '../core/moderation-strikes.js';
import { type StrikeStore } from '../ports/strike-store.js';
import { KeyedMutex } from './keyed-mutex.js';
import type { Ledger } from './ledger.js';

/** `strikes:{guild}:{user}`, with `dm` for the place outside servers (ids are digits, so it cannot collide). */
const memberKey = (member: StrikeMember): string => `strikes:${member.guildId ?? 'dm'}:${member.userId}`;
const serverKey = (guildId: string): string => `strikes-server:${guildId}`;
const SERVER_KEEP_MS = STRIKE_DAYS_KEPT * 86_400_000;

/** See the module comment. */
export class LedgerStrikeStore implements StrikeStore {
  readonly #ledger: Ledger;
  /** This process's updates of one record queue here, so only other processes compete in the optimistic update. */
  readonly #mutex = new KeyedMutex();

  constructor(ledger: Ledger) {
    this.#ledger = ledger;
  }

  async read(member: StrikeMember): Promise<MemberStrikes | undefined> {
    return memberOf(await this.#ledger.get(memberKey(member)));
  }

  async strike(member: StrikeMember, now: number, policy: StrikePolicy): Promise<StrikeOutcome> {
    const key = memberKey(member);
    const outcome = await this.#mutex.run(key, () =>
      this.#ledger.update(key, (current) => {
        // An unreadable record starts again: the strikes it held are lost, never a refusal of every later request.
        const decided = withStrike(memberOf(current), now, policy);
        return { result: decided, write: { value: decided.record, ttlMs: memberKeepMs(decided.record, now, policy) } };
      }),
    );
    const { guildId } = member;
    if (guildId !== null) await this.#changeServer(guildId, (record) => withServerStrike(record, member.userId, now, outcome.pausedUntil));
    return outcome;
  }

  async clear(member: StrikeMember, now: number): Promise<MemberStrikes | undefined> {
    const key = memberKey(member);
    const before = await this.#mutex.run(key, async () => {
      const held = await this.read(member);
      await this.#ledger.delete(key);
      return held;
    });
    const { guildId } = member;
    if (guildId !== null) await this.#changeServer(guildId, (record) => withoutPause(record, member.userId, now));
    return before;
  }

  async server(guildId: string): Promise<ServerStrikes | undefined> {
    return serverOf(await this.#ledger.get(serverKey(guildId)));
  }

  async #changeServer(guildId: string, change: (record: ServerStrikes | undefined) => ServerStrikes): Promise<void> {
    const key = serverKey(guildId);
    await this.#mutex.run(key, () =>
      this.#ledger.update(key, (current) => ({ result: undefined, write: { value: change(serverOf(current)), ttlMs: SERVER_KEEP_MS } })),
    );
  }
}

function memberOf(value: unknown): MemberStrikes | undefined {
  const parsed = MemberStrikes.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function serverOf(value: unknown): ServerStrikes | undefined {
  const parsed = ServerStrikes.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
