/**
 * The lanes' rule (issue 32, src/core/lane-turns.ts) between the jobs waiting for a PostgreSQL job slot in every
 * process: one row per namespace holds the priority lane's run, and one row per waiting job its lane, until it lapses
 * ({@link WAITER_MS} after its latest attempt, so a process that died holds no lane back for longer). An attempt runs
 * in one transaction that first locks the namespace's row, so attempts decide one after the other, each seeing the
 * waiters and the run the one before left.
 */
import type pg from 'pg';
import { laneMayStart } from '../core/lane-turns.js';
import type { Lane } from '../core/server-settings.js';
import { createTableIfMissing } from './postgres-pool.js';

const RUNS = 'imagine_bot_slot_lanes';
const WAITERS = 'imagine_bot_slot_waiters';

/** How long a waiter keeps its place in its lane after its latest attempt: a few of its polls (at most 1 s apart). */
export const WAITER_MS = 3_000;

/** The lanes' tables, and this namespace's row. */
export async function createLaneTables(pool: pg.Pool, namespace: string): Promise<void> {
  await createTableIfMissing(pool, `CREATE TABLE IF NOT EXISTS ${RUNS} (namespace TEXT PRIMARY KEY, run INTEGER NOT NULL)`);
  await createTableIfMissing(
    pool,
    `CREATE TABLE IF NOT EXISTS ${WAITERS} (namespace TEXT NOT NULL, waiter TEXT NOT NULL, lane TEXT NOT NULL, expires_at TIMESTAMPTZ NOT NULL, PRIMARY KEY (namespace, waiter))`,
  );
  await pool.query(`INSERT INTO ${RUNS} (namespace, run) VALUES ($1, 0) ON CONFLICT DO NOTHING`, [namespace]);
}

/** One waiting job: its namespace, its id among the waiters, its lane and the rule's weight. */
export interface LaneWaiter {
  namespace: string;
  waiter: string;
  lane: Lane;
  weight: number;
}

/** What an attempt found, for {@link settleAttempt}. */
export interface LaneTurn {
  /** It is this lane's turn. */
  mayStart: boolean;
  run: number;
  /** A job of the normal lane waits (so a priority start counts on the run). */
  normalWaits: boolean;
}

/**
 * Begins an attempt on `client`: a transaction holding the namespace's row (until {@link settleAttempt} commits), the
 * waiters that lapsed dropped, and whether it is `waiter`'s lane's turn.
 */
export async function beginAttempt(client: pg.ClientBase, { namespace, waiter, lane, weight }: LaneWaiter): Promise<LaneTurn> {
  await client.query('BEGIN');
  const locked = await client.query<{ run: number }>({
    name: 'job-slot-lane-run',
    text: `SELECT run FROM ${RUNS} WHERE namespace = $1 FOR UPDATE`,
    values: [namespace],
  });
  // A new statement, so it sees what the attempts before it committed while this one waited for the row.
  const { rows } = await client.query<{ lane: Lane }>({
    name: 'job-slot-lane-waiters',
    text: `WITH gone AS (DELETE FROM ${WAITERS} WHERE namespace = $1 AND expires_at < clock_timestamp())
      SELECT DISTINCT lane FROM ${WAITERS} WHERE namespace = $1 AND waiter <> $2 AND expires_at >= clock_timestamp()`,
    values: [namespace, waiter],
  });
  const run = locked.rows[0]?.run ?? 0;
  const waiting = new Set(rows.map((row) => row.lane));
  const other: Lane = lane === 'priority' ? 'normal' : 'priority';
  return { mayStart: laneMayStart({ weight, run }, lane, waiting.has(other)), run, normalWaits: waiting.has('normal') };
}

/**
 * Ends the attempt and commits: `started` (the job took its slots): it leaves its lane and the run counts on;
 * `waits` (its member had room, but the lane's turn or the global slots did not): it keeps its place for
 * {@link WAITER_MS}; `leaves` (its member's slots are full: it could not take a freed slot): it leaves its lane.
 */
export async function settleAttempt(client: pg.ClientBase, who: LaneWaiter, turn: LaneTurn, outcome: 'started' | 'waits' | 'leaves'): Promise<void> {
  const { namespace, waiter, lane } = who;
  if (outcome === 'started') {
    const run = lane === 'priority' && turn.normalWaits ? turn.run + 1 : 0;
    await client.query({
      name: 'job-slot-lane-started',
      text: `WITH gone AS (DELETE FROM ${WAITERS} WHERE namespace = $1 AND waiter = $2) UPDATE ${RUNS} SET run = $3 WHERE namespace = $1`,
      values: [namespace, waiter, run],
    });
  } else if (outcome === 'waits') {
    await client.query({
      name: 'job-slot-lane-waits',
      text: `INSERT INTO ${WAITERS} (namespace, waiter, lane, expires_at) VALUES ($1, $2, $3, clock_timestamp() + $4 * interval '1 millisecond')
        ON CONFLICT (namespace, waiter) DO UPDATE SET lane = EXCLUDED.lane, expires_at = EXCLUDED.expires_at`,
      values: [namespace, waiter, lane, WAITER_MS],
    });
  } else {
    await leaveLane(client, who);
  }
  await client.query('COMMIT');
}

/** Takes `waiter` out of its lane (it stopped waiting). */
export async function leaveLane(client: pg.ClientBase | pg.Pool, { namespace, waiter }: Pick<LaneWaiter, 'namespace' | 'waiter'>): Promise<void> {
  await client.query({ name: 'job-slot-lane-leave', text: `DELETE FROM ${WAITERS} WHERE namespace = $1 AND waiter = $2`, values: [namespace, waiter] });
}

/**
 * A normal-lane attempt while no priority job waits, in one statement (autocommit): the locks as in the full attempt,
 * and the lanes' bookkeeping of its outcome: started (out of its lane; the run back to 0, as after any normal start),
 * waits (its place kept {@link WAITER_MS}), or its member's slots full (out of its lane). With a priority job
 * waiting it does nothing (`fast` false) and the attempt takes the full, serialised path ({@link beginAttempt}).
 * `$1` member keys, `$2` global keys, `$3` namespace, `$4` waiter, `$5` WAITER_MS.
 */
export const TRY_NORMAL = `WITH p AS MATERIALIZED (SELECT NOT EXISTS (SELECT 1 FROM ${WAITERS} WHERE namespace = $3 AND lane = 'priority' AND expires_at >= clock_timestamp()) AS fast),
  m AS MATERIALIZED (SELECT k FROM unnest($1::bigint[]) AS k WHERE (SELECT fast FROM p) AND pg_try_advisory_lock(k) LIMIT 1),
  g AS MATERIALIZED (SELECT k FROM unnest($2::bigint[]) AS k WHERE EXISTS (SELECT 1 FROM m) AND pg_try_advisory_lock(k) LIMIT 1),
  u AS MATERIALIZED (SELECT pg_advisory_unlock(k) AS undone FROM m WHERE NOT EXISTS (SELECT 1 FROM g)),
  gone AS (DELETE FROM ${WAITERS} WHERE namespace = $3 AND waiter = $4 AND (SELECT fast FROM p) AND (EXISTS (SELECT 1 FROM g) OR NOT EXISTS (SELECT 1 FROM m))),
  waits AS (INSERT INTO ${WAITERS} (namespace, waiter, lane, expires_at)
    SELECT $3, $4, 'normal', clock_timestamp() + $5 * interval '1 millisecond' WHERE EXISTS (SELECT 1 FROM m) AND NOT EXISTS (SELECT 1 FROM g)
    ON CONFLICT (namespace, waiter) DO UPDATE SET lane = EXCLUDED.lane, expires_at = EXCLUDED.expires_at),
  run AS (UPDATE ${RUNS} SET run = 0 WHERE namespace = $3 AND run <> 0 AND EXISTS (SELECT 1 FROM g))
  SELECT (SELECT fast FROM p) AS fast, (SELECT k FROM m) AS member, (SELECT k FROM g) AS global, (SELECT count(*) FROM u) AS undone`;
