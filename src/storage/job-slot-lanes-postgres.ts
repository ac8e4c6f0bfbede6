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

/** How long a waiter keeps its place in its lane after its latest attempt: a few of its polls (at most 3 s apart). */
export const WAITER_MS = 10_000;

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
