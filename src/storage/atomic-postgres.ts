import type pg from 'pg';
import type pino from 'pino';
import { type AtomicStore, type AtomicWrite, type Decide, SWEEP_EVERY_WRITES, type Update } from './atomic-store.js';
import { OptimisticUpdater, type SwapOutcome } from './optimistic-update.js';
import { createPostgresPool, createTableIfMissing } from './postgres-pool.js';
import { withTimeout } from './with-timeout.js';

const TABLE = 'quota_ledger';

const UPSERT_SET = 'ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at';

/*
 * The ledger's statements run as named prepared statements: each connection parses and plans them once (planning
 * the swap cost as much as running it).
 */
const GET = `SELECT value FROM ${TABLE} WHERE key = $1 AND expires_at > $2`;
const SET = `INSERT INTO ${TABLE} (key, value, expires_at) VALUES ($1, $2, $3) ${UPSERT_SET}`;

/**
 * The end of a swap: the `beside` records ($5 keys, $6 texts, $7 expiries) are written only if the record was,
 * and the statement answers whether it was and, for a retry, the record's live text at the statement's start.
 */
const BESIDE_AND_ANSWER = `beside AS (
  INSERT INTO ${TABLE} (key, value, expires_at) SELECT * FROM unnest($5::text[], $6::text[], $7::bigint[]) WHERE EXISTS (SELECT 1 FROM swapped)
  ${UPSERT_SET}
  RETURNING 1
)
SELECT (SELECT count(*) FROM swapped)::int AS swapped, (SELECT value FROM ${TABLE} WHERE key = $1 AND expires_at > $4) AS current`;

/**
 * Swaps the record ($1 key, $2 text, $3 expiry) if it is missing or expired at $4; the conflict's WHERE is checked
 * against the latest committed row, after waiting for any transaction writing it.
 */
const SWAP_MISSING = `WITH swapped AS (
  INSERT INTO ${TABLE} AS l (key, value, expires_at) VALUES ($1, $2, $3)
  ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at WHERE l.expires_at <= $4
  RETURNING 1
), ${BESIDE_AND_ANSWER}`;

/** Swaps the record ($1 key, $2 text, $3 expiry) if it still holds $8; READ COMMITTED re-checks the WHERE on the latest row. */
const SWAP_HELD = `WITH swapped AS (
  UPDATE ${TABLE} SET value = $2, expires_at = $3 WHERE key = $1 AND value = $8
  RETURNING 1
), ${BESIDE_AND_ANSWER}`;

/** Options of {@link openPostgresAtomicStore}. */
export interface PostgresAtomicStoreOptions {
  /** Prefix of every key (several bots or test runs may share a database). */
  namespace: string;
  /** `application_name` of the ledger's connections, so an operator can tell them apart in pg_stat_activity. */
  applicationName: string;
  connectTimeoutMs: number;
  /** Connections the pool keeps at most. @default 10 */
  maxConnections?: number | undefined;
  /** Scheme and host, for log lines. */
  display: string;
  logger: pino.Logger;
}

/**
 * {@link AtomicStore} on PostgreSQL through a pg pool the ledger owns, in a table of its own. An update is a
 * conditional update (optimistic-update.ts): decide in TypeScript on the record as last known or read, then one
 * statement that writes it (and its `beside` records) only if it still holds that, and start again when it does
 * not. One round trip and one commit when this process knows the record, with no connection held while deciding
 * (a transaction with SELECT … FOR UPDATE took four round trips and halved the reservations per second). A
 * connection that drops fails the calls that were using it and never the process (postgres-pool.ts).
 */
export async function openPostgresAtomicStore(url: string, options: PostgresAtomicStoreOptions): Promise<AtomicStore> {
  const log = options.logger.child({ module: 'ledger', storage: options.display });
  const pool = createPostgresPool(url, {
    applicationName: options.applicationName,
    connectTimeoutMs: options.connectTimeoutMs,
    maxConnections: options.maxConnections ?? 10,
    lostMessage: 'ledger connection lost',
    logger: log,
  });
  try {
    await withTimeout(createTable(pool), options.connectTimeoutMs);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  return new PostgresAtomicStore(pool, options.namespace);
}

async function createTable(pool: pg.Pool): Promise<void> {
  await createTableIfMissing(pool, `CREATE TABLE IF NOT EXISTS ${TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at BIGINT NOT NULL)`);
  await pool.query(`DELETE FROM ${TABLE} WHERE expires_at <= $1`, [Date.now()]);
}

class PostgresAtomicStore implements AtomicStore {
  readonly #pool: pg.Pool;
  readonly #prefix: string;
  readonly #updater: OptimisticUpdater;
  #writes = 0;
  #closing: Promise<void> | undefined;

  constructor(pool: pg.Pool, namespace: string) {
    this.#pool = pool;
    this.#prefix = `${namespace}:`;
    this.#updater = new OptimisticUpdater({ read: (key) => this.get(key), swap: (key, expected, update) => this.#swap(key, expected, update) });
  }

  async get(key: string): Promise<string | undefined> {
    const { rows } = await this.#pool.query<{ value: string }>({ name: 'quota-ledger-get', text: GET, values: [this.#prefix + key, Date.now()] });
    return rows[0]?.value;
  }

  async set(key: string, { text, ttlMs }: AtomicWrite): Promise<void> {
    this.#updater.forget(key);
    await this.#pool.query({ name: 'quota-ledger-set', text: SET, values: [this.#prefix + key, text, Date.now() + ttlMs] });
    await this.#wrote();
  }

  update(key: string, decide: Decide): Promise<void> {
    return this.#updater.update(key, decide);
  }

  async clear(): Promise<void> {
    const pattern = `${this.#prefix.replace(/[\\%_]/g, '\\$&')}%`;
    await this.#pool.query(`DELETE FROM ${TABLE} WHERE key LIKE $1`, [pattern]);
  }

  close(): Promise<void> {
    this.#closing ??= this.#pool.end();
    return this.#closing;
  }

  async #swap(key: string, expected: string | undefined, update: Update): Promise<SwapOutcome> {
    const now = Date.now();
    const beside = update.beside ?? [];
    const params = [
      this.#prefix + key,
      update.text,
      now + update.ttlMs,
      now,
      beside.map((w) => this.#prefix + w.key),
      beside.map((w) => w.text),
      beside.map((w) => now + w.ttlMs),
    ];
    const { rows } = await this.#pool.query<{ swapped: number; current: string | null }>(
      expected === undefined
        ? { name: 'quota-ledger-swap-missing', text: SWAP_MISSING, values: params }
        : { name: 'quota-ledger-swap-held', text: SWAP_HELD, values: [...params, expected] },
    );
    const answer = rows[0];
    if (answer?.swapped === 1) {
      await this.#wrote();
      return { swapped: true };
    }
    return { swapped: false, current: answer?.current ?? undefined };
  }

  /** Counts a write and sweeps expired rows every so often. */
  async #wrote(): Promise<void> {
    this.#writes += 1;
    if (this.#writes % SWEEP_EVERY_WRITES === 0) await this.#pool.query(`DELETE FROM ${TABLE} WHERE expires_at <= $1`, [Date.now()]);
  }
}
