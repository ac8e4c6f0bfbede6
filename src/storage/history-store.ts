/**
 * Members' histories (core/history-entries.ts) in the ledger's store, one record per member and server: a
 * delivered job is added by one atomic update (a Lua compare-and-set on Redis, a conditional statement on
 * PostgreSQL, an immediate transaction on SQLite), so several processes never lose an entry; clearing deletes the
 * record. The record lives HISTORY_DAYS after its last entry.
 */
import { HistoryRecord, withEntry, type HistoryEntry, type HistoryOwner } from '../core/history-entries.js';
import { type HistoryStore } from '../ports/history-store.js';
import { KeyedMutex } from './keyed-mutex.js';
import type { Ledger } from './ledger.js';

/** `history:{guild}:{user}`, with `dm` for the place outside servers (ids are digits, so it cannot collide). */
const keyOf = (owner: HistoryOwner): string => `history:${owner.guildId ?? 'dm'}:${owner.userId}`;

/** See the module comment. */
export class LedgerHistoryStore implements HistoryStore {
  readonly #ledger: Ledger;
  /**
   * This process's updates of one member's record queue here, as the quota store's do, so only other processes
   * compete in the store's optimistic update: racing each other there, a burst of one member's jobs could lose more
   * than its retry limit allows.
   */
  readonly #mutex = new KeyedMutex();

  constructor(ledger: Ledger) {
    this.#ledger = ledger;
  }

  async add(owner: HistoryOwner, entry: HistoryEntry, retention: { keepFrom: number; keepMs: number }): Promise<void> {
    const key = keyOf(owner);
    await this.#mutex.run(key, () =>
      this.#ledger.update(key, (current) => {
        // An unreadable record starts again rather than refusing every later job.
        const parsed = HistoryRecord.safeParse(current);
        return { result: undefined, write: { value: withEntry(parsed.success ? parsed.data : undefined, entry, retention.keepFrom), ttlMs: retention.keepMs } };
      }),
    );
  }

  async entries(owner: HistoryOwner): Promise<HistoryEntry[]> {
    const parsed = HistoryRecord.safeParse(await this.#ledger.get(keyOf(owner)));
    return parsed.success ? parsed.data.entries : [];
  }

  async clear(owner: HistoryOwner): Promise<void> {
    await this.#ledger.delete(keyOf(owner));
  }
}
