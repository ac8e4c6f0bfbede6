/**
 * The quota ledger's port to a backend: text records under keys, each with a time to live, and one atomic
 * read-modify-write. Every backend implements it with its own client and its own atomic mechanism
 * (atomic-memory.ts, atomic-sqlite.ts, atomic-redis.ts, atomic-postgres.ts), so the quota rules above it are
 * written once, in TypeScript, and hold however many processes share the store.
 */

/** A record to write: its text, and how long (in real time) the backend keeps it before it cleans it up. */
export interface AtomicWrite {
  text: string;
  /** Whole milliseconds, at least 1. */
  ttlMs: number;
}

/** A record to write under `key`. */
export interface KeyedWrite extends AtomicWrite {
  key: string;
}

/** What an update writes: the record it read, and other records written in the same atomic step. */
export interface Update extends AtomicWrite {
  /** Written with the record, whatever they held (a job's record beside its member's usage); other keys only. */
  beside?: readonly KeyedWrite[] | undefined;
}

/** Decides the new record from the current one (undefined when missing); undefined leaves everything as it is. */
export type Decide = (text: string | undefined) => Update | undefined;

/** One counter's increment: a field of a counter key and the whole number to add to it. */
export type Increment = readonly [field: string, by: number];

/** Longest field name of a counter (callers cut what a member could make longer), so every row stays small. */
export const MAX_COUNTER_FIELD = 200;

/**
 * Whole-number counters under a key, each field its own small record (a hash field on Redis, a row on PostgreSQL and
 * SQLite), added to with the backend's own atomic increment: no record is read, decided on and rewritten, so a
 * write costs the same however many fields the key holds (issue 28).
 */
export interface CounterStore {
  /**
   * Adds each increment to its field of `key` (a missing or expired field counts from 0), all as one atomic step,
   * keeps the key `ttlMs` more and returns the fields' new values, in order. Fields must be distinct.
   */
  addCounters(key: string, increments: readonly Increment[], ttlMs: number): Promise<number[]>;
  /** Every live field of `key` and its value (empty when there is none). */
  readCounters(key: string): Promise<Map<string, number>>;
}

/** One backend's atomic records; keys are given without the namespace, which the store adds. */
export interface AtomicStore extends CounterStore {
  /** The text at `key`, or undefined when it is missing or past its time to live. */
  get(key: string): Promise<string | undefined>;
  set(key: string, write: AtomicWrite): Promise<void>;
  /**
   * Reads `key`, calls `decide` with its text and writes what it returns (with its `beside` records), as one atomic
   * step in the backend: no other update of `key`, from this process or another, lands in between. `decide` must be
   * synchronous and free of side effects, since an optimistic backend calls it again when another writer got in
   * first. An exception from `decide` aborts the update (nothing is written) and is rethrown as it is.
   */
  update(key: string, decide: Decide): Promise<void>;
  /** Removes the record at `key` (nothing when it is missing); an update of it after this finds it missing. */
  delete(key: string): Promise<void>;
  /** Deletes every record of this store's namespace (tests and tear-down only: it scans). */
  clear(): Promise<void>;
  /** Releases the connection(s); idempotent. */
  close(): Promise<void>;
}

/** Throws when `increments` hold a field twice or a field longer than {@link MAX_COUNTER_FIELD}. */
export function checkIncrements(increments: readonly Increment[]): void {
  const fields = new Set<string>();
  for (const [field, by] of increments) {
    if (field.length > MAX_COUNTER_FIELD) throw new Error(`counter field longer than ${MAX_COUNTER_FIELD} characters`);
    if (fields.has(field)) throw new Error('counter field given twice');
    if (!Number.isSafeInteger(by)) throw new Error('counter increment is not a whole number');
    fields.add(field);
  }
}

/** How many records a backend writes between two sweeps of expired rows (SQLite and PostgreSQL keep them otherwise). */
export const SWEEP_EVERY_WRITES = 1_000;
