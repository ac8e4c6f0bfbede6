/**
 * The ledger's counters on PostgreSQL (atomic-store.ts's CounterStore): one small row per field of a key, added to
 * by one `INSERT … ON CONFLICT DO UPDATE SET n = n + excluded.n`, so an increment touches its own rows only, however
 * many fields the key holds. Rows are locked in field order, so two writers of the same fields never deadlock.
 */
import type pg from 'pg';
import type { Increment } from './atomic-store.js';
import { createTableIfMissing } from './postgres-pool.js';

export const COUNTER_TABLE = 'quota_counters';

const ADD = `INSERT INTO ${COUNTER_TABLE} AS c (key, field, n, expires_at)
  SELECT $1, f.field, f.n, $4 FROM unnest($2::text[], $3::bigint[]) AS f(field, n) ORDER BY f.field
  ON CONFLICT (key, field) DO UPDATE SET n = CASE WHEN c.expires_at > $5 THEN c.n + excluded.n ELSE excluded.n END, expires_at = excluded.expires_at
  RETURNING field, n`;
const READ = `SELECT field, n FROM ${COUNTER_TABLE} WHERE key = $1 AND expires_at > $2`;

export async function createCounterTable(pool: pg.Pool): Promise<void> {
  await createTableIfMissing(
    pool,
    `CREATE TABLE IF NOT EXISTS ${COUNTER_TABLE} (key TEXT NOT NULL, field TEXT NOT NULL, n BIGINT NOT NULL, expires_at BIGINT NOT NULL, PRIMARY KEY (key, field))`,
  );
}

/** Adds `increments` to `key`'s fields in one statement; their new values, in the order given. */
export async function addCounters(pool: pg.Pool, key: string, increments: readonly Increment[], ttlMs: number): Promise<number[]> {
  const now = Date.now();
  const { rows } = await pool.query<{ field: string; n: string }>({
    name: 'quota-counters-add',
    text: ADD,
    values: [key, increments.map(([field]) => field), increments.map(([, by]) => by), now + ttlMs, now],
  });
  const byField = new Map(rows.map((row) => [row.field, Number(row.n)]));
  return increments.map(([field]) => byField.get(field) ?? 0);
}

export async function readCounters(pool: pg.Pool, key: string): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ field: string; n: string }>({ name: 'quota-counters-read', text: READ, values: [key, Date.now()] });
  return new Map(rows.map((row) => [row.field, Number(row.n)]));
}

/** Deletes expired counters (rows another sweep holds are left to it). */
export async function sweepExpiredCounters(pool: pg.Pool, now: number): Promise<void> {
  await pool.query(
    `DELETE FROM ${COUNTER_TABLE} WHERE (key, field) IN (SELECT key, field FROM ${COUNTER_TABLE} WHERE expires_at <= $1 FOR UPDATE SKIP LOCKED)`,
    [now],
  );
}

/** Deletes every counter whose key matches the LIKE `pattern`. */
export async function clearCounters(pool: pg.Pool, pattern: string): Promise<void> {
  await pool.query(`DELETE FROM ${COUNTER_TABLE} WHERE key LIKE $1`, [pattern]);
}
