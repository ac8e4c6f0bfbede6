/**
 * The batched compare-and-set on a real PostgreSQL (POSTGRES_URL): what each swap of a batch writes and answers,
 * expired records read as missing, beside records only with their swapped record, answers that are the committed
 * truth, batches of two pools that stay exact together, and sweeps that never wait for a swap.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresAtomicStore } from '../../src/storage/atomic-postgres.js';
import { LEDGER_TABLE, swapBatch, sweepExpired, type SwapRequest } from '../../src/storage/postgres-swap-batch.js';
import { PostgresSessions } from '../support/postgres-sessions.js';
import { seededRandom, silentLogger } from './helpers.js';

const POSTGRES_URL = process.env['POSTGRES_URL'];
const APPLICATION_NAME = `imagine-bot-swap-batch-${randomUUID().slice(0, 8)}`;

describe.skipIf(!POSTGRES_URL)(POSTGRES_URL ? 'batched swaps on PostgreSQL' : 'batched swaps on PostgreSQL: skipped because POSTGRES_URL is not set', () => {
  const url = POSTGRES_URL ?? '';
  const prefix = `swap-batch-${randomUUID()}:`;
  const pools: pg.Pool[] = [];
  const openPool = () => {
    const pool = new pg.Pool({ connectionString: url, application_name: APPLICATION_NAME, max: 4 });
    pools.push(pool);
    return pool;
  };
  let pool: pg.Pool;

  beforeAll(async () => {
    // The store creates the ledger's table.
    await (
      await openPostgresAtomicStore(url, {
        namespace: prefix,
        applicationName: APPLICATION_NAME,
        connectTimeoutMs: 5_000,
        display: 'postgres',
        logger: silentLogger,
      })
    ).close();
    pool = openPool();
  });
  afterAll(async () => {
    await pool.query(`DELETE FROM ${LEDGER_TABLE} WHERE key LIKE $1`, [`${prefix}%`]);
    await Promise.all(pools.map((p) => p.end()));
  });

  const key = (name: string) => prefix + name;
  const swap = (name: string, expected: string | undefined, text: string, beside: SwapRequest['beside'] = []): SwapRequest => ({
    key: key(name),
    expected,
    text,
    ttlMs: 60_000,
    beside,
  });
  const put = (name: string, text: string, expiresAt = Date.now() + 60_000) =>
    pool.query(`INSERT INTO ${LEDGER_TABLE} (key, value, expires_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO UPDATE SET value = $2, expires_at = $3`, [
      key(name),
      text,
      expiresAt,
    ]);
  /** The live text of each record (undefined: missing or expired). */
  const live = async (...names: string[]) => {
    const { rows } = await pool.query<{ key: string; value: string }>(`SELECT key, value FROM ${LEDGER_TABLE} WHERE key = ANY($1) AND expires_at > $2`, [
      names.map(key),
      Date.now(),
    ]);
    return names.map((name) => rows.find((r) => r.key === key(name))?.value);
  };

  it('swaps each record that holds what its swap expects, and answers the others with what they hold', async () => {
    await Promise.all([put('held', 'h1'), put('changed', 'c2'), put('present', 'p1')]);
    const outcomes = await swapBatch(pool, [
      swap('held', 'h1', 'h2'),
      swap('changed', 'c1', 'c3'),
      swap('absent', undefined, 'a1'),
      swap('present', undefined, 'p2'),
      swap('gone', 'g1', 'g2'),
    ]);
    expect(outcomes).toEqual([
      { swapped: true },
      { swapped: false, current: 'c2' },
      { swapped: true },
      { swapped: false, current: 'p1' },
      { swapped: false, current: undefined },
    ]);
    expect(await live('held', 'changed', 'absent', 'present', 'gone')).toEqual(['h2', 'c2', 'a1', 'p1', undefined]);
  });

  it('takes an expired record for a missing one', async () => {
    await Promise.all([put('expired-a', 'old', Date.now() - 1), put('expired-b', 'old', Date.now() - 1)]);
    const outcomes = await swapBatch(pool, [swap('expired-a', undefined, 'new'), swap('expired-b', 'old', 'new')]);
    expect(outcomes).toEqual([{ swapped: true }, { swapped: false, current: undefined }]);
    expect(await live('expired-a', 'expired-b')).toEqual(['new', undefined]);
  });

  it('writes the beside records of the swapped records only', async () => {
    await put('owner-lost', 'theirs');
    const outcomes = await swapBatch(pool, [
      swap('owner-won', undefined, 'mine', [{ key: key('job-won'), text: 'job', ttlMs: 60_000 }]),
      swap('owner-lost', 'mine', 'mine', [{ key: key('job-lost'), text: 'job', ttlMs: 60_000 }]),
    ]);
    expect(outcomes.map((o) => o.swapped)).toEqual([true, false]);
    expect(await live('owner-won', 'job-won', 'owner-lost', 'job-lost')).toEqual(['mine', 'job', 'theirs', undefined]);
  });

  it('answers the text committed while it waited for the row, not the one at its start', async () => {
    await put('raced', 'before');
    const writer = new pg.Client({ connectionString: url });
    await writer.connect();
    const sessions = await PostgresSessions.connect(url);
    try {
      await writer.query('BEGIN');
      await writer.query(`UPDATE ${LEDGER_TABLE} SET value = 'after' WHERE key = $1`, [key('raced')]);
      const batch = swapBatch(pool, [swap('raced', 'before', 'mine')]);
      await sessions.waitForLockWaiters(APPLICATION_NAME);
      await writer.query('COMMIT');
      expect(await batch).toEqual([{ swapped: false, current: 'after' }]);
    } finally {
      await writer.end();
      await sessions.close();
    }
  });

  it('stays exact when two pools swap the same records in batches at once, in any order, without deadlocks', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `counter-${i}`);
    const random = seededRandom(14);
    let swapped = 0;
    /** Rounds of batches that each add 1 to a shuffled selection of the counters, as last known by this worker. */
    const worker = async (p: pg.Pool) => {
      const known = new Map<string, string | undefined>();
      for (let round = 0; round < 25; round += 1) {
        const chosen = names.filter(() => random() < 0.7).sort(() => random() - 0.5);
        const outcomes = await swapBatch(
          p,
          chosen.map((name) => swap(name, known.get(name), String(Number(known.get(name) ?? '0') + 1))),
        );
        outcomes.forEach((outcome, i) => {
          const name = chosen[i] ?? '';
          if (outcome.swapped) swapped += 1;
          known.set(name, outcome.swapped ? String(Number(known.get(name) ?? '0') + 1) : outcome.current);
        });
      }
    };
    const [first, second] = [openPool(), openPool()];
    await Promise.all([first, first, first, second, second, second].map(worker));
    const totals = (await live(...names)).map((text) => Number(text ?? '0'));
    expect(swapped).toBeGreaterThan(100);
    expect(totals.reduce((a, b) => a + b, 0)).toBe(swapped);
  });

  it('sweeps expired rows without waiting for one a transaction holds', async () => {
    await Promise.all([put('stale-free', 'x', 1), put('stale-held', 'x', 1)]);
    const holder = await PostgresSessions.connect(url);
    try {
      await holder.lockRow(LEDGER_TABLE, key('stale-held'));
      await sweepExpired(pool, Date.now());
      const { rows } = await pool.query<{ key: string }>(`SELECT key FROM ${LEDGER_TABLE} WHERE key = ANY($1)`, [[key('stale-free'), key('stale-held')]]);
      expect(rows.map((r) => r.key)).toEqual([key('stale-held')]);
    } finally {
      await holder.release();
      await holder.close();
    }
  });
});
