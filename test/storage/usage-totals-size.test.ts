/**
 * Issue 28: a server's usage day is small counters, not one record rewritten per job, so no stored record grows
 * with the members a day counts. On every store, the largest record of the namespace (a row or hash field of a
 * counter, or a ledger record) is the same size after 5,000 members as after 5, and the figures still add up.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { SettledJob } from '../../src/core/usage-totals.js';
import { connectRedis } from '../../src/storage/redis-client.js';
import { openBackend } from '../../src/storage/open-backend.js';
import { createStorage, type Storage } from '../../src/storage/open-storage.js';
import { parseStorageUrl } from '../../src/storage/storage-url.js';
import { silentLogger } from './helpers.js';

const REDIS_URL = process.env['REDIS_URL'];
const POSTGRES_URL = process.env['POSTGRES_URL'];
const opened: Storage[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const DAY = '2026-11-25';
/** Snowflake-like ids of one length, so record sizes compare. */
const userId = (i: number) => String(300_000_000_000_000_000n + BigInt(i));
const ROLES = ['400000000000000001', '400000000000000002'];

/** Member `i`'s job `n`: delivered, or refused every fourth. */
const job = (i: number, n: number): SettledJob => {
  const refused = i % 4 === 3;
  return {
    jobId: `job-${String(i).padStart(6, '0')}-${n}`,
    userId: userId(i),
    roleIds: ROLES,
    outcome: refused ? 'refused' : 'delivered',
    reason: refused ? 'quota.exceeded' : undefined,
    model: 'gpt-image-2',
    delivered: refused ? 0 : 1,
    cost: refused ? undefined : { usd: 0.02, source: 'reported' },
    reachedGateway: !refused,
  };
};

/** The size in bytes of the largest record under `namespace`, read from the store itself. */
type Largest = (namespace: string) => Promise<number>;

async function largestSql(query: (sql: string, pattern: string) => Promise<number>, namespace: string): Promise<number> {
  const pattern = `${namespace}:%`;
  const ledger = await query('SELECT max(length(key) + length(value)) AS n FROM quota_ledger WHERE key LIKE $1', pattern);
  const counters = await query('SELECT max(length(key) + length(field) + 8) AS n FROM quota_counters WHERE key LIKE $1', pattern);
  return Math.max(ledger, counters);
}

const sqliteLargest =
  (file: string): Largest =>
  async (namespace) => {
    const db = new sqlite3.Database(file);
    try {
      return await largestSql(
        (sql, pattern) =>
          new Promise((resolve, reject) => {
            db.get(sql.replace('$1', '?'), [pattern], (error: Error | null, row: { n: number | null }) => (error ? reject(error) : resolve(row.n ?? 0)));
          }),
        namespace,
      );
    } finally {
      db.close();
    }
  };

const postgresLargest =
  (url: string): Largest =>
  async (namespace) => {
    const client = new pg.Client(url);
    await client.connect();
    try {
      return await largestSql(async (sql, pattern) => Number((await client.query<{ n: string | null }>(sql, [pattern])).rows[0]?.n ?? 0), namespace);
    } finally {
      await client.end();
    }
  };

const redisLargest =
  (url: string): Largest =>
  async (namespace) => {
    const client = await connectRedis(url, { connectTimeoutMs: 3_000, name: 'imagine-bot-test-sizes' });
    let largest = 0;
    try {
      for await (const keys of client.scanIterator({ MATCH: `${namespace}:*`, COUNT: 500 })) {
        for (const key of keys) {
          const type = await client.type(key);
          if (type === 'hash') {
            for (const [field, value] of Object.entries(await client.hGetAll(key))) largest = Math.max(largest, key.length + field.length + value.length);
          } else if (type === 'string') largest = Math.max(largest, key.length + ((await client.get(key)) ?? '').length);
        }
      }
    } finally {
      await client.close();
    }
    return largest;
  };

const sqliteFile = join(mkdtempSync(join(tmpdir(), 'totals-size-')), 'bot.sqlite');
const places: [string, string | undefined, (url: string) => Largest][] = [
  ['SQLite', `sqlite://${sqliteFile}`, () => sqliteLargest(sqliteFile)],
  ['Redis', REDIS_URL, redisLargest],
  ['PostgreSQL', POSTGRES_URL, postgresLargest],
];

/** Adds `jobs` with `inFlight` at once. */
async function addAll(storage: Storage, guild: string, jobs: readonly SettledJob[], inFlight = 16): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      if (job) await storage.usageTotals.add(guild, DAY, job);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

describe.each(places)('usage day on %s', (name, url, largestOf) => {
  it.skipIf(url === undefined)(
    `keeps every record as small after 5,000 members as after 5 (${url === undefined ? `skipped: no ${name} URL` : name})`,
    { timeout: 120_000 },
    async () => {
      const namespace = `imagine-bot-test-${randomUUID()}`;
      const backend = await openBackend(parseStorageUrl(url ?? ''), { namespace, connectTimeoutMs: 5_000, logger: silentLogger });
      const storage = createStorage(backend, { defaults: { limit: 5, period: 'day' }, jobLeaseMs: 60_000, logger: silentLogger });
      opened.push(storage);
      const largest = largestOf(url ?? '');
      const guild = randomUUID();
      await addAll(
        storage,
        guild,
        Array.from({ length: 5 }, (_, i) => job(i, 0)),
      );
      const afterFive = await largest(namespace);
      await addAll(
        storage,
        guild,
        Array.from({ length: 4_995 }, (_, i) => job(i + 5, 0)),
      );
      const afterFiveThousand = await largest(namespace);
      expect(afterFive).toBeGreaterThan(0);
      expect(afterFiveThousand).toBe(afterFive);
      expect(afterFiveThousand).toBeLessThan(200);

      const [day] = await storage.usageTotals.days(guild, [DAY]);
      // 3,750 delivered (one member in four refused), $0.02 each, counted for the member, the model and both roles.
      expect(day).toMatchObject({ images: 3_750, jobs: 3_750, reportedUsd: 75, estimatedUsd: 0, failures: 0, refusals: { 'quota.exceeded': 1_250 } });
      expect(Object.keys(day?.members ?? {})).toHaveLength(3_750);
      expect(day?.members[userId(0)]).toEqual({ images: 1, jobs: 1, costUsd: 0.02 });
      expect(Object.keys(day?.refusedMembers ?? {})).toHaveLength(1_250);
      expect(day?.models).toEqual({ 'gpt-image-2': { images: 3_750, jobs: 3_750, costUsd: 75 } });
      expect(day?.roles[ROLES[0] ?? '']).toMatchObject({ images: 3_750, jobs: 3_750, costUsd: 75, refused: 1_250 });
      expect(day?.roles[ROLES[1] ?? '']?.members).toHaveLength(5_000);
      expect(day?.jobIds).toHaveLength(3_750);
      expect(day?.jobIdsCut).toBe(false);
    },
  );
});
