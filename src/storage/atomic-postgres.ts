import type pg from 'pg';
import type pino from 'pino';
import { type AtomicStore, type AtomicWrite, checkIncrements, type Decide, type Increment, SWEEP_EVERY_WRITES } from './atomic-store.js';
import { addCounters, clearCounters, createCounterTable, readCounters, sweepExpiredCounters } from './postgres-counters.js';
import { OptimisticUpdater, type SwapOutcome } from './optimistic-update.js';
import { createPostgresPool, createTableIfMissing } from './postgres-pool.js';
import { LEDGER_TABLE, swapBatch, sweepExpired, type SwapRequest } from './postgres-swap-batch.js';
import { SwapBatcher } from './swap-batcher.js';
import { withTimeout } from './with-timeout.js';

const TABLE = LEDGER_TABLE;

/*
 * The ledger's statements run as named prepared statements: each connection parses and plans them once (planning
 * a swap cost as much as running it).
 */
const GET_MANY = `SELECT key, value FROM ${TABLE} WHERE key = ANY ($1::text[]) AND expires_at > $2`;
const SET = `INSERT INTO ${TABLE} (key, value, expires_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`;

const DELETE = `DELETE FROM ${TABLE} WHERE key = $1`;

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
 * conditional update (optimistic-update.ts): decide in TypeScript on the record as last known or read, then a
 * swap that writes it (and its `beside` records) only if it still holds that, and start again when it does not.
 * The swaps waiting in this process go to the database together (swap-batcher.ts): one statement for up to 64 of
 * them (postgres-swap-batch.ts), two such statements in flight at most, since the time per statement, client and
 * server, bounds the throughput far more than the rows it writes. No connection is held while deciding (a
 * transaction with SELECT … FOR UPDATE took four round trips and halved the reservations per second). A connection
 * that drops fails the calls that were using it and never the process (postgres-pool.ts).
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
  return new PostgresAtomicStore(pool, options.namespace, log);
}

async function createTable(pool: pg.Pool): Promise<void> {
  await createTableIfMissing(pool, `CREATE TABLE IF NOT EXISTS ${TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at BIGINT NOT NULL)`);
  await createCounterTable(pool);
  await sweepExpired(pool, Date.now());
  await sweepExpiredCounters(pool, Date.now());
}

class PostgresAtomicStore implements AtomicStore {
  readonly #pool: pg.Pool;
  readonly #prefix: string;
  readonly #log: pino.Logger;
  readonly #updater: OptimisticUpdater;
  readonly #batcher: SwapBatcher<SwapRequest, SwapOutcome>;
  readonly #reads: SwapBatcher<string, string | undefined>;
  #writes = 0;
  #sweeping: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  constructor(pool: pg.Pool, namespace: string, log: pino.Logger) {
    this.#pool = pool;
    this.#prefix = `${namespace}:`;
    this.#log = log;
    this.#batcher = new SwapBatcher<SwapRequest, SwapOutcome>({
      send: (requests) => this.#sendBatch(requests),
      keysOf: (request) => [request.key, ...request.beside.map((w) => w.key)],
    });
    // Reads write nothing: any number of them, of any keys, go together.
    this.#reads = new SwapBatcher<string, string | undefined>({ send: (keys) => this.#getMany(keys), keysOf: () => [] });
    this.#updater = new OptimisticUpdater({
      read: (key) => this.get(key),
      swap: (key, expected, update) =>
        this.#batcher.submit({
          key: this.#prefix + key,
          expected,
          text: update.text,
          ttlMs: update.ttlMs,
          beside: (update.beside ?? []).map((w) => ({ ...w, key: this.#prefix + w.key })),
        }),
    });
  }

  async get(key: string): Promise<string | undefined> {
    return this.#reads.submit(this.#prefix + key);
  }

  async #getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    const { rows } = await this.#pool.query<{ key: string; value: string }>({ name: 'quota-ledger-get-many', text: GET_MANY, values: [keys, Date.now()] });
    const byKey = new Map(rows.map((row) => [row.key, row.value]));
    return keys.map((key) => byKey.get(key));
  }

  async set(key: string, { text, ttlMs }: AtomicWrite): Promise<void> {
    this.#updater.forget(key);
    await this.#pool.query({ name: 'quota-ledger-set', text: SET, values: [this.#prefix + key, text, Date.now() + ttlMs] });
    this.#wrote(1);
  }

  update(key: string, decide: Decide): Promise<void> {
    return this.#updater.update(key, decide);
  }

  async delete(key: string): Promise<void> {
    this.#updater.forget(key);
    await this.#pool.query({ name: 'quota-ledger-delete', text: DELETE, values: [this.#prefix + key] });
  }

  async addCounters(key: string, increments: readonly Increment[], ttlMs: number): Promise<number[]> {
    checkIncrements(increments);
    const values = await addCounters(this.#pool, this.#prefix + key, increments, ttlMs);
    this.#wrote(1);
    return values;
  }

  readCounters(key: string): Promise<Map<string, number>> {
    return readCounters(this.#pool, this.#prefix + key);
  }

  async clear(): Promise<void> {
    const pattern = `${this.#prefix.replace(/[\\%_]/g, '\\$&')}%`;
    await this.#pool.query(`DELETE FROM ${TABLE} WHERE key LIKE $1`, [pattern]);
    await clearCounters(this.#pool, pattern);
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#sweeping;
      await this.#pool.end();
    })();
    return this.#closing;
  }

  async #sendBatch(requests: readonly SwapRequest[]): Promise<SwapOutcome[]> {
    const outcomes = await swapBatch(this.#pool, requests);
    this.#wrote(outcomes.filter((o) => o.swapped).length);
    return outcomes;
  }

  /** Counts writes and, every SWEEP_EVERY_WRITES, sweeps expired rows beside them (a failed sweep is only logged). */
  #wrote(count: number): void {
    const before = this.#writes;
    this.#writes += count;
    if (Math.floor(before / SWEEP_EVERY_WRITES) === Math.floor(this.#writes / SWEEP_EVERY_WRITES) || this.#sweeping || this.#closing) return;
    const now = Date.now();
    this.#sweeping = Promise.all([sweepExpired(this.#pool, now), sweepExpiredCounters(this.#pool, now)])
      .then(
        () => undefined,
        (err: unknown) => this.#log.warn({ err }, 'ledger sweep failed'),
      )
      .finally(() => {
        this.#sweeping = undefined;
      });
  }
}
