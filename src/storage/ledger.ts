import type { AtomicStore, AtomicWrite, Increment } from './atomic-store.js';
import { StorageUnavailableError } from './errors.js';

/** What text that is not JSON reads as: `{ unreadable: true }`, which fails every record schema. */
const UNREADABLE = { unreadable: true } as const;

/** A record and how long the backend keeps it (real time). */
interface LedgerWrite {
  value: unknown;
  ttlMs: number;
}

/** What a change of one record decides: the caller's result and, optionally, the record to write. */
export interface LedgerChange<R> {
  result: R;
  /** The new record, and other records written in the same atomic step; undefined leaves everything as it is. */
  write?: (LedgerWrite & { beside?: readonly (LedgerWrite & { key: string })[] | undefined }) | undefined;
}

/**
 * JSON records over an {@link AtomicStore}, failing closed: every backend failure becomes a
 * {@link StorageUnavailableError} carrying the driver error as `cause`, while an error thrown by a change (a
 * corrupt record, say) reaches the caller as it is. Values come back as `unknown` for the caller to validate.
 */
export class Ledger {
  readonly #store: AtomicStore;
  readonly #where: string;
  #closed = false;

  /** @param where scheme and host for error messages, e.g. `redis://cache:6379`. */
  constructor(store: AtomicStore, where: string) {
    this.#store = store;
    this.#where = where;
  }

  /** The record at `key`, `{ unreadable: true }` when its text is not JSON, or undefined when missing. */
  async get(key: string): Promise<unknown> {
    const text = await this.#guard('read', () => this.#store.get(key));
    return text === undefined ? undefined : parse(text);
  }

  /**
   * Changes the record at `key` atomically (see {@link AtomicStore.update}) and returns the result `change`
   * decided on. `change` must be synchronous and free of side effects: it may run more than once.
   */
  async update<R>(key: string, change: (current: unknown) => LedgerChange<R>): Promise<R> {
    let decided: { result: R } | undefined;
    let thrown: { error: unknown } | undefined;
    await this.#guard(
      'update',
      () =>
        this.#store.update(key, (text) => {
          try {
            const { result, write } = change(text === undefined ? undefined : parse(text));
            decided = { result };
            if (!write) return undefined;
            return { ...encode(write.value, write.ttlMs), beside: write.beside?.map((b) => ({ key: b.key, ...encode(b.value, b.ttlMs) })) };
          } catch (error) {
            thrown = { error };
            throw error;
          }
        }),
      () => thrown,
    );
    if (!decided) throw new StorageUnavailableError(`Storage update at ${this.#where} ended without a decision`);
    return decided.result;
  }

  /** Adds to `key`'s counters atomically and returns their new values (see {@link AtomicStore.addCounters}). */
  async addCounters(key: string, increments: readonly Increment[], ttlMs: number): Promise<number[]> {
    return this.#guard('counter update', () => this.#store.addCounters(key, increments, toTtl(ttlMs)));
  }

  /** `key`'s counters (see {@link AtomicStore.readCounters}). */
  async readCounters(key: string): Promise<Map<string, number>> {
    return this.#guard('counter read', () => this.#store.readCounters(key));
  }

  /** Removes the record at `key`; an update of it after this finds it missing. */
  async delete(key: string): Promise<void> {
    await this.#guard('delete', () => this.#store.delete(key));
  }

  /** Writes raw text under `key`, bypassing encoding: lets tests and repair tools simulate or fix corruption. */
  async writeRaw(key: string, raw: string, ttlMs: number): Promise<void> {
    await this.#guard('write', () => this.#store.set(key, { text: raw, ttlMs: toTtl(ttlMs) }));
  }

  /** Deletes every record of this namespace (tests and tear-down only: it scans). */
  async clear(): Promise<void> {
    await this.#guard('clear', () => this.#store.clear());
  }

  /** Refuses every later operation and releases the backend's connections; idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#store.close();
  }

  async #guard<T>(operation: string, run: () => Promise<T>, passThrough: () => { error: unknown } | undefined = () => undefined): Promise<T> {
    if (this.#closed) throw new StorageUnavailableError(`Storage at ${this.#where} is closed`);
    try {
      return await run();
    } catch (error) {
      const own = passThrough();
      if (own) throw own.error;
      throw new StorageUnavailableError(`Storage ${operation} failed at ${this.#where}`, { cause: error });
    }
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return UNREADABLE;
  }
}

function encode(value: unknown, ttlMs: number): AtomicWrite {
  return { text: JSON.stringify(value), ttlMs: toTtl(ttlMs) };
}

/** Backends take whole positive milliseconds. */
function toTtl(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs));
}
