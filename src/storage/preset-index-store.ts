/**
 * The names of each owner's saved styles (core/style-presets.ts) in the ledger's store: each change is one atomic update
 * (a Lua compare-and-set on Redis, a conditional statement on PostgreSQL, an immediate transaction on SQLite), so two
 * saves in two processes neither lose a name nor pass the owner's limit.
 */
import { PresetIndex } from '../core/style-presets.js';
import type { PresetIndexAdd, PresetIndexStore } from '../ports/preset-index-store.js';
import { KeyedMutex } from './keyed-mutex.js';
import type { Ledger } from './ledger.js';

const indexKey = (owner: string): string => `preset-index:${owner}`;
const namesOf = (current: unknown): string[] => PresetIndex.safeParse(current).data?.names ?? [];

/** See the module comment. */
export class LedgerPresetIndexStore implements PresetIndexStore {
  readonly #ledger: Ledger;
  /** This process's updates of one key queue here, so only other processes compete in the store's optimistic update. */
  readonly #mutex = new KeyedMutex();

  constructor(ledger: Ledger) {
    this.#ledger = ledger;
  }

  add(owner: string, name: string, limit: number, keepMs: number): Promise<PresetIndexAdd> {
    const key = indexKey(owner);
    return this.#mutex.run(key, () =>
      this.#ledger.update(key, (current) => {
        const names = namesOf(current);
        if (names.includes(name)) return { result: 'present' as const };
        if (names.length >= limit) return { result: 'full' as const };
        return { result: 'added' as const, write: { value: { names: [...names, name] }, ttlMs: keepMs } };
      }),
    );
  }

  remove(owner: string, name: string, keepMs: number): Promise<boolean> {
    const key = indexKey(owner);
    return this.#mutex.run(key, () =>
      this.#ledger.update(key, (current) => {
        const names = namesOf(current);
        if (!names.includes(name)) return { result: false };
        return { result: true, write: { value: { names: names.filter((n) => n !== name) }, ttlMs: keepMs } };
      }),
    );
  }

  async names(owner: string): Promise<string[]> {
    return namesOf(await this.#ledger.get(indexKey(owner)));
  }
}
