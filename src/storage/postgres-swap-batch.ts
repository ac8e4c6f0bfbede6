import type pg from 'pg';
import type { KeyedWrite } from './atomic-store.js';
import type { SwapOutcome } from './optimistic-update.js';

/** The ledger's table on PostgreSQL. */
export const LEDGER_TABLE = 'quota_ledger';

/** One compare-and-set of a batch; keys are full (namespace included) and unique across the batch, `beside` too. */
export interface SwapRequest {
  key: string;
  /** The live text the record must hold for the swap to write, or undefined: it must be missing (or expired). */
  expected: string | undefined;
  text: string;
  ttlMs: number;
  /** Written, whatever they held, only if the record is swapped; never one of the batch's records. */
  beside: readonly KeyedWrite[];
}

/**
 * Every swap of a batch in one statement ($1 keys, $2 expected texts with null for "missing", $3 new texts, $4
 * expiries; $5 now; $6–$9 the beside records' owners, keys, texts and expiries).
 *
 * `swap` is one INSERT … ON CONFLICT over the keys in key order: each row is locked in that order, whether it is
 * written or not (so batches of several processes never deadlock), and its condition is checked against the
 * latest committed row after waiting for any transaction writing it. A missing key is inserted: with its new
 * record when the swap expects it missing, else as an expired row (missing to every reader) that the swap does not
 * count. `current` then reads the rows not swapped FOR SHARE, after `swap` has run (its keys come from an InitPlan
 * over `swap`) and with their locks already held, so it answers their latest committed text; an expired record
 * reads as missing. The beside records are written for the swapped keys only, after them, in key order.
 */
const SWAP_BATCH = `WITH input AS MATERIALIZED (
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[]) WITH ORDINALITY AS i(key, expected, text, expires_at, n)
), swap AS (
  INSERT INTO ${LEDGER_TABLE} AS l (key, value, expires_at)
  SELECT key, text, CASE WHEN expected IS NULL THEN expires_at ELSE 0 END FROM input ORDER BY key
  ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = (SELECT i.expires_at FROM input i WHERE i.key = excluded.key)
  WHERE EXISTS (
    SELECT 1 FROM input i WHERE i.key = excluded.key
    AND CASE WHEN i.expected IS NULL THEN l.expires_at <= $5 ELSE l.value = i.expected AND l.expires_at > $5 END
  )
  RETURNING key, expires_at > 0 AS swapped
), beside AS (
  INSERT INTO ${LEDGER_TABLE} (key, value, expires_at)
  SELECT b.key, b.text, b.expires_at FROM unnest($6::text[], $7::text[], $8::text[], $9::bigint[]) AS b(owner, key, text, expires_at)
  WHERE b.owner IN (SELECT key FROM swap WHERE swapped) ORDER BY b.key
  ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
  RETURNING 1
), current AS MATERIALIZED (
  SELECT key, value FROM ${LEDGER_TABLE}
  WHERE key = ANY (ARRAY(SELECT key FROM input WHERE key NOT IN (SELECT key FROM swap WHERE swapped))) AND expires_at > $5
  FOR SHARE
)
SELECT coalesce(s.swapped, false) AS swapped, c.value AS current
FROM input i LEFT JOIN swap s ON s.key = i.key LEFT JOIN current c ON c.key = i.key
ORDER BY i.n`;

/**
 * Runs the swaps of one batch as one statement (a named prepared statement) and answers each one's outcome, in
 * order: swapped, or not and the record's latest committed text (undefined: missing or expired).
 */
export async function swapBatch(pool: pg.Pool, requests: readonly SwapRequest[]): Promise<SwapOutcome[]> {
  const now = Date.now();
  const beside = requests.flatMap((r) => r.beside.map((w) => ({ owner: r.key, ...w })));
  const { rows } = await pool.query<{ swapped: boolean; current: string | null }>({
    name: 'quota-ledger-swap-batch',
    text: SWAP_BATCH,
    values: [
      requests.map((r) => r.key),
      requests.map((r) => r.expected ?? null),
      requests.map((r) => r.text),
      requests.map((r) => now + r.ttlMs),
      now,
      beside.map((w) => w.owner),
      beside.map((w) => w.key),
      beside.map((w) => w.text),
      beside.map((w) => now + w.ttlMs),
    ],
  });
  if (rows.length !== requests.length) throw new Error(`a batch of ${requests.length} swaps answered ${rows.length} rows`);
  return rows.map((row) => (row.swapped ? { swapped: true } : { swapped: false, current: row.current ?? undefined }));
}

/**
 * Deletes expired rows, skipping those another transaction holds (a swap in flight decides on them itself), so a
 * sweep never waits for a swap nor a swap for a sweep. Answers how many it deleted.
 */
export async function sweepExpired(pool: pg.Pool, now: number): Promise<number> {
  const { rowCount } = await pool.query(
    `DELETE FROM ${LEDGER_TABLE} WHERE expires_at <= $1 AND key IN (SELECT key FROM ${LEDGER_TABLE} WHERE expires_at <= $1 FOR UPDATE SKIP LOCKED)`,
    [now],
  );
  return rowCount ?? 0;
}
