import { EventEmitter } from 'node:events';
import type { KeyvStoreAdapter, StoredData } from 'keyv';
import type pg from 'pg';
import type pino from 'pino';
import { createPostgresPool, createTableIfMissing } from './postgres-pool.js';
import { SwapBatcher } from './swap-batcher.js';
import { withTimeout } from './with-timeout.js';

/**
 * The table @keyv/postgres 2 created and used (schema `public`, keys up to 255 characters, values as keyv's
 * serialized text with the expiry inside), so data written before this store is read as it was.
 */
const TABLE = 'public.keyv';
const CREATE = `CREATE TABLE IF NOT EXISTS ${TABLE} (key VARCHAR(255) PRIMARY KEY, value TEXT)`;

/**
 * A value as read: keyv's serialized text, which keyv's adapter interface types as data of whatever value type the
 * caller asks for (`never` here, so it fits every one).
 */
type Stored = StoredData<never>;

/** Named prepared statements: each connection parses and plans them once. */
const STATEMENTS = {
  getMany: { name: 'keyv-get-many', text: `SELECT key, value FROM ${TABLE} WHERE key = ANY($1::text[])` },
  set: { name: 'keyv-set', text: `INSERT INTO ${TABLE} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value` },
  delete: { name: 'keyv-delete', text: `DELETE FROM ${TABLE} WHERE key = $1` },
  deleteMany: { name: 'keyv-delete-many', text: `DELETE FROM ${TABLE} WHERE key = ANY($1::text[])` },
  clear: { name: 'keyv-clear', text: `DELETE FROM ${TABLE} WHERE key LIKE $1` },
} as const;

/** Options of {@link openPostgresKeyvStore}. */
export interface PostgresKeyvStoreOptions {
  /** `application_name` of the store's connections. */
  applicationName: string;
  /** How long getting a connection, and creating the table at open, may take. */
  connectTimeoutMs: number;
  /** Connections the pool keeps at most. @default 10 */
  maxConnections?: number | undefined;
  logger: pino.Logger;
}

/**
 * Opens keyv's store on PostgreSQL over a pg pool of its own (postgres-pool.ts: a connection that drops fails the
 * calls using it, never the process), creating the table if it is missing. Throws the driver's error, or a timeout,
 * when it cannot within `connectTimeoutMs`.
 */
export async function openPostgresKeyvStore(url: string, options: PostgresKeyvStoreOptions): Promise<PostgresKeyvStore> {
  const pool = createPostgresPool(url, {
    applicationName: options.applicationName,
    connectTimeoutMs: options.connectTimeoutMs,
    maxConnections: options.maxConnections ?? 10,
    lostMessage: 'storage connection lost',
    logger: options.logger,
  });
  try {
    await withTimeout(createTableIfMissing(pool, CREATE), options.connectTimeoutMs);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  return new PostgresKeyvStore(pool);
}

/**
 * keyv's store adapter on PostgreSQL, in place of @keyv/postgres (whose module-global pool had no 'error' listener,
 * so an idle connection dropping ended the process). keyv adds the namespace to keys and keeps expiry inside the
 * value, so the store only maps keys to text. It has no `has`: keyv's fallback reads the value and checks its
 * expiry, which a bare `EXISTS` would not. Failures are thrown to keyv (which rethrows them with throwOnErrors).
 */
export class PostgresKeyvStore extends EventEmitter implements KeyvStoreAdapter {
  /** keyv reads `opts` of every adapter; nothing in it configures this one. */
  readonly opts = { dialect: 'postgres' };
  /** Set by keyv to its namespace: {@link clear} deletes only that namespace's keys. */
  namespace?: string | undefined;
  readonly #pool: pg.Pool;
  /** Reads waiting together go as one statement (swap-batcher.ts); they write nothing, so they never wait for each other. */
  readonly #reads = new SwapBatcher<readonly string[], Stored[]>({ send: (requests) => this.#readBatch(requests), keysOf: () => [] });
  #closing: Promise<void> | undefined;

  constructor(pool: pg.Pool) {
    super();
    this.#pool = pool;
  }

  async get<Value>(key: string): Promise<StoredData<Value> | undefined> {
    const [value] = await this.#reads.submit([key]);
    return value;
  }

  async getMany<Value>(keys: string[]): Promise<StoredData<Value | undefined>[]> {
    return this.#reads.submit(keys);
  }

  /** One statement for the keys of every read in the batch. */
  async #readBatch(requests: readonly (readonly string[])[]): Promise<Stored[][]> {
    const keys = [...new Set(requests.flat())];
    const { rows } = await this.#pool.query<{ key: string; value: Stored }>({ ...STATEMENTS.getMany, values: [keys] });
    const byKey = new Map(rows.map((row) => [row.key, row.value]));
    return requests.map((request) => request.map((key) => byKey.get(key) ?? undefined));
  }

  async set(key: string, value: string): Promise<void> {
    await this.#pool.query({ ...STATEMENTS.set, values: [key, value] });
  }

  async delete(key: string): Promise<boolean> {
    const { rowCount } = await this.#pool.query({ ...STATEMENTS.delete, values: [key] });
    return (rowCount ?? 0) > 0;
  }

  async deleteMany(keys: string[]): Promise<boolean> {
    const { rowCount } = await this.#pool.query({ ...STATEMENTS.deleteMany, values: [keys] });
    return (rowCount ?? 0) > 0;
  }

  /** Deletes the keys of keyv's namespace (every key when there is none). */
  async clear(): Promise<void> {
    const prefix = this.namespace === undefined ? '' : `${this.namespace.replace(/[\\%_]/g, '\\$&')}:`;
    await this.#pool.query({ ...STATEMENTS.clear, values: [`${prefix}%`] });
  }

  /** Ends the pool; idempotent. */
  disconnect(): Promise<void> {
    this.#closing ??= this.#pool.end();
    return this.#closing;
  }
}
