/**
 * Members' favorites and the showcase's claims (core/favorites.ts) in the ledger's store: each change is one atomic
 * update (a Lua compare-and-set on Redis, a conditional statement on PostgreSQL, an immediate transaction on SQLite),
 * so two stars in two processes neither lose a favorite nor post a result twice.
 */
import {
  FavoritesRecord,
  ShowcaseRecord,
  withFavorite,
  withoutFavorite,
  type FavoriteAdded,
  type FavoriteEntry,
  type FavoriteRemoved,
} from '../core/favorites.js';
import type { HistoryOwner } from '../core/history-entries.js';
import type { FavoritesStore } from '../ports/favorites-store.js';
import { KeyedMutex } from './keyed-mutex.js';
import type { Ledger } from './ledger.js';

/** `favorites:{guild}:{user}`, with `dm` outside servers (ids are digits, so it cannot collide). */
const favoritesKey = (owner: HistoryOwner): string => `favorites:${owner.guildId ?? 'dm'}:${owner.userId}`;
/** How long a given-up claim is kept (any later star may claim it meanwhile). */
const RELEASED_MS = 60_000;
const showcaseKey = (guildId: string, jobId: string): string => `showcase:${guildId}:${jobId}`;

/** See the module comment. */
export class LedgerFavoritesStore implements FavoritesStore {
  readonly #ledger: Ledger;
  /** This process's updates of one key queue here, so only other processes compete in the store's optimistic update. */
  readonly #mutex = new KeyedMutex();

  constructor(ledger: Ledger) {
    this.#ledger = ledger;
  }

  async add(owner: HistoryOwner, entry: FavoriteEntry, keepMs: number): Promise<FavoriteAdded> {
    const key = favoritesKey(owner);
    return this.#mutex.run(key, () =>
      this.#ledger.update(key, (current) => {
        // An unreadable record starts again rather than refusing every later star.
        const parsed = FavoritesRecord.safeParse(current);
        const { record, added } = withFavorite(parsed.success ? parsed.data : undefined, entry);
        return { result: added, write: { value: record, ttlMs: keepMs } };
      }),
    );
  }

  async remove(owner: HistoryOwner, jobId: string, keepMs: number): Promise<FavoriteRemoved> {
    const key = favoritesKey(owner);
    return this.#mutex.run(key, () =>
      this.#ledger.update(key, (current) => {
        const parsed = FavoritesRecord.safeParse(current);
        const { record, removed } = withoutFavorite(parsed.success ? parsed.data : undefined, jobId);
        // Nothing to write when it was not there (an unreadable record stays for add to start again).
        return removed.removed ? { result: removed, write: { value: record, ttlMs: keepMs } } : { result: removed };
      }),
    );
  }

  async entries(owner: HistoryOwner): Promise<FavoriteEntry[]> {
    const parsed = FavoritesRecord.safeParse(await this.#ledger.get(favoritesKey(owner)));
    return parsed.success ? parsed.data.entries : [];
  }

  async claimShowcase(guildId: string, jobId: string, claim: { holder: string; by: string; at: number }, ttlMs: number): Promise<'claimed' | 'taken'> {
    const key = showcaseKey(guildId, jobId);
    return this.#mutex.run(key, () =>
      this.#ledger.update(key, (current) => {
        // Whatever is there but a given-up claim (a claim, a post, or something unreadable) holds it: a result is never posted twice.
        if (current !== undefined && ShowcaseRecord.safeParse(current).data?.state !== 'released') return { result: 'taken' as const };
        const record: ShowcaseRecord = { v: 1, state: 'posting', ...claim };
        return { result: 'claimed' as const, write: { value: record, ttlMs } };
      }),
    );
  }

  async settleShowcase(guildId: string, jobId: string, holder: string, messageId: string | undefined, keepMs: number): Promise<void> {
    const key = showcaseKey(guildId, jobId);
    await this.#mutex.run(key, () =>
      this.#ledger.update(key, (current) => {
        const parsed = ShowcaseRecord.safeParse(current);
        if (!parsed.success || parsed.data.state !== 'posting' || parsed.data.holder !== holder) return { result: undefined };
        // Given up: marked so (a compare-and-set cannot delete), so a later star may claim it.
        const settled: ShowcaseRecord = messageId === undefined ? { ...parsed.data, state: 'released' } : { ...parsed.data, state: 'posted', messageId };
        const write = { value: settled, ttlMs: messageId === undefined ? RELEASED_MS : keepMs };
        return { result: undefined, write };
      }),
    );
  }
}
