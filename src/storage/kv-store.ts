import type { Deserialize, DeserializedData, Keyv } from 'keyv';
import { StorageUnavailableError } from './errors.js';

/** The longest wait between two tries of a busy operation. */
const MAX_BUSY_WAIT_MS = 50;

/** SQLite's "another connection holds the write lock", however deep keyv wrapped it. */
export function isBusy(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) if ((e as { code?: unknown }).code === 'SQLITE_BUSY') return true;
  return false;
}

/** What a value that is not valid JSON (or not a keyv entry) reads as: `{ unreadable: true }`, which fails every record schema. */
const UNREADABLE_ENTRY = JSON.stringify({ value: { unreadable: true } });

/**
 * The part of keyv's store that {@link KvStore.writeRaw} uses. keyv types its store as `any`; every store it
 * accepts (a Map or a keyv adapter) has `set(key, value)`, returning the Map or a promise.
 */
interface RawWritableStore {
  set(key: string, value: string): unknown;
}

/**
 * The only door to keyv: one namespaced `Keyv` with `throwOnErrors`, whose every failure becomes a
 * {@link StorageUnavailableError} carrying the driver error as `cause` (fail closed). Values come back as
 * `unknown` for the caller to validate.
 */
export class KvStore {
  readonly #keyv: Keyv<unknown>;
  readonly #where: string;
  readonly #busyRetryMs: number;
  #closed = false;

  /**
   * @param where scheme and host for error messages, e.g. `redis://cache:6379`.
   * @param options.busyRetryMs how long an operation the database refused as busy (SQLITE_BUSY) is tried again,
   * waiting between tries on the event loop (see open-backend.ts for why SQLite's own busy wait is not used).
   */
  constructor(keyv: Keyv<unknown>, where: string, options: { busyRetryMs?: number | undefined } = {}) {
    this.#keyv = keyv;
    this.#where = where;
    this.#busyRetryMs = options.busyRetryMs ?? 0;
  }

  /** The value, `{ unreadable: true }` when the stored text cannot be decoded, or undefined when missing. */
  async get(key: string): Promise<unknown> {
    return this.#guard('read', () => this.#keyv.get(key));
  }

  /** Several values in one round trip where the backend allows it, in the order of `keys`. */
  async getMany(keys: readonly string[]): Promise<unknown[]> {
    if (keys.length === 0) return [];
    return this.#guard('read', () => this.#keyv.get([...keys]));
  }

  /**
   * Stores `value` for `ttlMs` milliseconds of real time, or until deleted when undefined. The backend's expiry
   * only cleans up; logical expiry (with the injected clock) is the caller's job.
   */
  async set(key: string, value: unknown, ttlMs: number | undefined): Promise<void> {
    await this.#guard('write', () => this.#keyv.set(key, value, toTtl(ttlMs)));
  }

  async delete(key: string): Promise<void> {
    await this.#guard('delete', () => this.#keyv.delete(key));
  }

  /** Deletes every key of this namespace (tests and tear-down only: it scans). */
  async clear(): Promise<void> {
    await this.#guard('clear', () => this.#keyv.clear());
  }

  /** Writes raw text under `key`, bypassing encoding: lets tests and repair tools simulate or fix corruption. */
  async writeRaw(key: string, raw: string): Promise<void> {
    const store = this.#keyv.store as RawWritableStore;
    const fullKey = this.#keyv.useKeyPrefix && this.#keyv.namespace ? `${this.#keyv.namespace}:${key}` : key;
    await this.#guard('write', async () => {
      await store.set(fullKey, raw);
    });
  }

  /** Refuses every later operation; some drivers (node-redis) would otherwise silently reconnect. */
  markClosed(): void {
    this.#closed = true;
  }

  async #guard<T>(operation: string, run: () => Promise<T>): Promise<T> {
    if (this.#closed) throw new StorageUnavailableError(`Storage at ${this.#where} is closed`);
    try {
      return await whileBusy(run, this.#busyRetryMs);
    } catch (error) {
      throw new StorageUnavailableError(`Storage ${operation} failed at ${this.#where}`, { cause: error });
    }
  }
}

/**
 * Runs `run`, trying it again while SQLite answers busy (SQLITE_BUSY) for up to `retryMs`, waiting between tries
 * on the event loop; any other error, or a busy one past the deadline, is thrown as it is.
 */
export async function whileBusy<T>(run: () => Promise<T>, retryMs: number): Promise<T> {
  const deadline = Date.now() + retryMs;
  for (let wait = 1; ; wait = Math.min(wait * 2, MAX_BUSY_WAIT_MS)) {
    try {
      return await run();
    } catch (error) {
      if (!isBusy(error) || Date.now() + wait > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** keyv TTLs are whole positive milliseconds; 0 or undefined would mean "forever". */
function toTtl(ttlMs: number | undefined): number | undefined {
  return ttlMs === undefined ? undefined : Math.max(1, Math.ceil(ttlMs));
}

/** keyv's serializer for our values: plain JSON (they hold no Buffers or Dates). */
export function serializeEntry(data: unknown): string {
  return JSON.stringify(data);
}

/**
 * keyv's deserializer: text that is not a JSON keyv entry reads as an `{ unreadable: true }` value instead of
 * throwing, so a garbled value is reported as corrupt by the record's schema rather than as a storage outage.
 */
export const deserializeEntry: Deserialize = <Value>(data: string): DeserializedData<Value> => {
  // keyv's generic signature promises the caller's Value; the text only proves an object with a `value`, which callers validate with zod.
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed === 'object' && parsed !== null && 'value' in parsed) return parsed as DeserializedData<Value>;
  } catch {
    // Not JSON: fall through.
  }
  return JSON.parse(UNREADABLE_ENTRY) as DeserializedData<Value>;
};
