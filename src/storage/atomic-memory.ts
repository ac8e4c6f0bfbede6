import { type AtomicStore, type AtomicWrite, checkIncrements, type Decide, type Increment } from './atomic-store.js';

interface Entry {
  text: string;
  /** Real time (Date.now) after which the entry is gone. */
  expiresAt: number;
}

/**
 * {@link AtomicStore} in this process's memory (`memory://`, tests). An update reads, decides and writes
 * synchronously, so nothing can come in between on one event loop; it is one process's truth only.
 */
export class MemoryAtomicStore implements AtomicStore {
  readonly #entries = new Map<string, Entry>();
  readonly #counters = new Map<string, { fields: Map<string, number>; expiresAt: number }>();

  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.#read(key));
  }

  set(key: string, write: AtomicWrite): Promise<void> {
    this.#write(key, write);
    return Promise.resolve();
  }

  update(key: string, decide: Decide): Promise<void> {
    try {
      const update = decide(this.#read(key));
      if (update) {
        this.#write(key, update);
        for (const beside of update.beside ?? []) this.#write(beside.key, beside);
      }
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  delete(key: string): Promise<void> {
    this.#entries.delete(key);
    return Promise.resolve();
  }

  addCounters(key: string, increments: readonly Increment[], ttlMs: number): Promise<number[]> {
    checkIncrements(increments);
    const now = Date.now();
    const was = this.#counters.get(key);
    const fields = was !== undefined && was.expiresAt > now ? was.fields : new Map<string, number>();
    this.#counters.set(key, { fields, expiresAt: now + ttlMs });
    return Promise.resolve(
      increments.map(([field, by]) => {
        const value = (fields.get(field) ?? 0) + by;
        fields.set(field, value);
        return value;
      }),
    );
  }

  readCounters(key: string): Promise<Map<string, number>> {
    const counters = this.#counters.get(key);
    return Promise.resolve(new Map(counters !== undefined && counters.expiresAt > Date.now() ? counters.fields : []));
  }

  clear(): Promise<void> {
    this.#entries.clear();
    this.#counters.clear();
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  #read(key: string): string | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > Date.now()) return entry.text;
    this.#entries.delete(key);
    return undefined;
  }

  #write(key: string, { text, ttlMs }: AtomicWrite): void {
    this.#entries.set(key, { text, expiresAt: Date.now() + ttlMs });
  }
}
