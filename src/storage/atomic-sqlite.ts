import sqlite3 from 'sqlite3';
import { z } from 'zod';
import {
  type AtomicStore,
  type AtomicWrite,
  checkIncrements,
  type Decide,
  type Increment,
  type KeyedWrite,
  SWEEP_EVERY_WRITES,
  type Update,
} from './atomic-store.js';
import { KeyedMutex } from './keyed-mutex.js';

const TABLE = 'quota_ledger';
const Row = z.object({ value: z.string() });
const UPSERT_SET = 'ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at';
/** Counters (atomic-store.ts's CounterStore): a small row per field, added to by one upsert statement. */
const COUNTERS = 'quota_counters';
const CounterRow = z.object({ field: z.string(), n: z.number() });
const ADD_COUNTER_SET =
  'ON CONFLICT(key, field) DO UPDATE SET n = CASE WHEN expires_at > ? THEN n + excluded.n ELSE excluded.n END, expires_at = excluded.expires_at';

/** Options of {@link openSqliteAtomicStore}. */
export interface SqliteAtomicStoreOptions {
  /** Prefix of every key (several bots or test runs may share a file). */
  namespace: string;
  /** How long a transaction waits for another connection's (or process's) write lock before it fails. */
  busyTimeoutMs: number;
}

/**
 * {@link AtomicStore} in the SQLite file the rest of the bot's data lives in, through a connection of its own and
 * a table of its own. An update is a `BEGIN IMMEDIATE` transaction: it takes the file's write lock before it reads,
 * so the read, the decision and the write are one step for every connection and every process on the file; another
 * writer waits up to `busyTimeoutMs` for the lock. The connection carries one transaction at a time, so this
 * process's operations on it queue (that queue serves the connection, not correctness: the lock is SQLite's), and
 * the updates that arrive while a transaction runs share the next one.
 */
export async function openSqliteAtomicStore(file: string, options: SqliteAtomicStoreOptions): Promise<AtomicStore> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened: sqlite3.Database = new sqlite3.Database(file, (error) => (error ? reject(error) : resolve(opened)));
  });
  try {
    db.configure('busyTimeout', options.busyTimeoutMs);
    await run(db, 'PRAGMA journal_mode = WAL');
    await run(db, 'PRAGMA synchronous = NORMAL');
    await run(db, `CREATE TABLE IF NOT EXISTS ${TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER NOT NULL)`);
    await run(db, `DELETE FROM ${TABLE} WHERE expires_at <= ?`, [Date.now()]);
    await run(
      db,
      `CREATE TABLE IF NOT EXISTS ${COUNTERS} (key TEXT NOT NULL, field TEXT NOT NULL, n INTEGER NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (key, field))`,
    );
    await run(db, `DELETE FROM ${COUNTERS} WHERE expires_at <= ?`, [Date.now()]);
  } catch (error) {
    await close(db).catch(() => undefined);
    throw error;
  }
  return new SqliteAtomicStore(db, options.namespace);
}

interface WaitingUpdate {
  key: string;
  decide: Decide;
  resolve: () => void;
  reject: (error: unknown) => void;
}

class SqliteAtomicStore implements AtomicStore {
  readonly #db: sqlite3.Database;
  readonly #prefix: string;
  readonly #connection = new KeyedMutex();
  /** Updates waiting for the next transaction; the first one to arrive queues it. */
  #waiting: WaitingUpdate[] = [];
  #writes = 0;
  #closing: Promise<void> | undefined;

  constructor(db: sqlite3.Database, namespace: string) {
    this.#db = db;
    this.#prefix = `${namespace}:`;
  }

  async get(key: string): Promise<string | undefined> {
    return this.#serial(() => this.#read(this.#prefix + key));
  }

  async set(key: string, write: AtomicWrite): Promise<void> {
    await this.#serial(() => this.#write([{ ...write, key }]));
  }

  update(key: string, decide: Decide): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ key, decide, resolve, reject });
      // Not awaited: #commitWaiting settles every waiting update itself and never rejects.
      if (this.#waiting.length === 1) void this.#serial(() => this.#commitWaiting());
    });
  }

  /**
   * Runs the updates waiting now in one `BEGIN IMMEDIATE` transaction (group commit): each reads, decides and
   * writes in turn, so they see each other's writes, and the batch pays for one lock and one commit. An update
   * whose decision throws writes nothing and fails alone; a database error fails the whole batch, written nothing.
   */
  async #commitWaiting(): Promise<void> {
    const batch = this.#waiting.splice(0);
    const failed = new Map<WaitingUpdate, unknown>();
    try {
      await run(this.#db, 'BEGIN IMMEDIATE');
      for (const waiting of batch) {
        let update: Update | undefined;
        try {
          update = waiting.decide(await this.#read(this.#prefix + waiting.key));
        } catch (error) {
          failed.set(waiting, error);
          continue;
        }
        if (update) await this.#write([{ ...update, key: waiting.key }, ...(update.beside ?? [])]);
      }
      await run(this.#db, 'COMMIT');
    } catch (error) {
      await run(this.#db, 'ROLLBACK').catch(() => undefined);
      for (const waiting of batch) failed.set(waiting, error);
    }
    for (const waiting of batch) {
      if (failed.has(waiting)) waiting.reject(failed.get(waiting));
      else waiting.resolve();
    }
  }

  /** One upsert statement (atomic on its own), its new values read back with RETURNING. */
  async addCounters(key: string, increments: readonly Increment[], ttlMs: number): Promise<number[]> {
    checkIncrements(increments);
    if (increments.length === 0) return [];
    const now = Date.now();
    const rows = increments.map(() => '(?, ?, ?, ?)').join(', ');
    const params = [...increments.flatMap(([field, by]) => [this.#prefix + key, field, by, now + ttlMs]), now];
    const returned = await this.#serial(async () => {
      const read = await all(this.#db, `INSERT INTO ${COUNTERS} (key, field, n, expires_at) VALUES ${rows} ${ADD_COUNTER_SET} RETURNING field, n`, params);
      this.#writes += 1;
      if (this.#writes % SWEEP_EVERY_WRITES === 0) await run(this.#db, `DELETE FROM ${COUNTERS} WHERE expires_at <= ?`, [now]);
      return read;
    });
    const byField = new Map(returned.map((row) => CounterRow.parse(row)).map((row) => [row.field, row.n]));
    return increments.map(([field]) => byField.get(field) ?? 0);
  }

  async readCounters(key: string): Promise<Map<string, number>> {
    const rows = await this.#serial(() => all(this.#db, `SELECT field, n FROM ${COUNTERS} WHERE key = ? AND expires_at > ?`, [this.#prefix + key, Date.now()]));
    return new Map(rows.map((row) => CounterRow.parse(row)).map((row) => [row.field, row.n]));
  }

  async delete(key: string): Promise<void> {
    await this.#serial(() => run(this.#db, `DELETE FROM ${TABLE} WHERE key = ?`, [this.#prefix + key]));
  }

  async clear(): Promise<void> {
    const pattern = `${this.#prefix.replace(/[\\%_]/g, '\\$&')}%`;
    await this.#serial(async () => {
      await run(this.#db, `DELETE FROM ${TABLE} WHERE key LIKE ? ESCAPE '\\'`, [pattern]);
      await run(this.#db, `DELETE FROM ${COUNTERS} WHERE key LIKE ? ESCAPE '\\'`, [pattern]);
    });
  }

  close(): Promise<void> {
    this.#closing ??= this.#serial(() => close(this.#db));
    return this.#closing;
  }

  /** One operation at a time on the connection: a transaction must not interleave with anything else on it. */
  #serial<T>(task: () => Promise<T>): Promise<T> {
    return this.#connection.run('connection', task);
  }

  async #read(fullKey: string): Promise<string | undefined> {
    const row = await get(this.#db, `SELECT value FROM ${TABLE} WHERE key = ? AND expires_at > ?`, [fullKey, Date.now()]);
    return row === undefined ? undefined : Row.parse(row).value;
  }

  /** One statement for all the records. */
  async #write(writes: readonly KeyedWrite[]): Promise<void> {
    const now = Date.now();
    const rows = writes.map(() => '(?, ?, ?)').join(', ');
    const params = writes.flatMap((w) => [this.#prefix + w.key, w.text, now + w.ttlMs]);
    await run(this.#db, `INSERT INTO ${TABLE} (key, value, expires_at) VALUES ${rows} ${UPSERT_SET}`, params);
    this.#writes += 1;
    if (this.#writes % SWEEP_EVERY_WRITES === 0) await run(this.#db, `DELETE FROM ${TABLE} WHERE expires_at <= ?`, [now]);
  }
}

function run(db: sqlite3.Database, sql: string, params: readonly unknown[] = []): Promise<void> {
  return new Promise((resolve, reject) => {
    db.run(sql, params, (error: Error | null) => (error ? reject(error) : resolve()));
  });
}

function get(db: sqlite3.Database, sql: string, params: readonly unknown[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    db.get(sql, params, (error: Error | null, row: unknown) => (error ? reject(error) : resolve(row)));
  });
}

function all(db: sqlite3.Database, sql: string, params: readonly unknown[]): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    db.all(sql, params, (error: Error | null, rows: unknown[]) => (error ? reject(error) : resolve(rows)));
  });
}

function close(db: sqlite3.Database): Promise<void> {
  return new Promise((resolve, reject) => {
    db.close((error) => (error ? reject(error) : resolve()));
  });
}
