/**
 * Servers' daily usage totals on every store: two stores opened on one place (as two processes would) add jobs at
 * once, and the day holds every one of them.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { SettledJob } from '../../src/service/usage-totals.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';

const REDIS_URL = process.env['REDIS_URL'];
const POSTGRES_URL = process.env['POSTGRES_URL'];
const logger = pino({ level: 'silent' });
const opened: Storage[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const job = (i: number, outcome: SettledJob['outcome'] = 'delivered'): SettledJob => ({
  jobId: `job-${i}`,
  userId: i % 2 === 0 ? 'alice' : 'bob',
  outcome,
  reason: outcome === 'refused' ? 'quota.exceeded' : undefined,
  model: 'gpt-image-2',
  delivered: outcome === 'delivered' ? 2 : 0,
  cost: outcome === 'delivered' ? { usd: 0.01, source: 'estimated' } : undefined,
  reachedGateway: outcome === 'delivered',
});

const places: [string, string | undefined][] = [
  ['SQLite', `sqlite://${join(mkdtempSync(join(tmpdir(), 'totals-')), 'bot.sqlite')}`],
  ['Redis', REDIS_URL],
  ['PostgreSQL', POSTGRES_URL],
];

describe.each(places)('usage totals on %s', (name, url) => {
  it.skipIf(url === undefined)(`adds every job of two stores at once exactly (${url === undefined ? `skipped: no ${name} URL` : name})`, async () => {
    const namespace = `imagine-bot-test-${randomUUID()}`;
    const open = async () => {
      const storage = await openStorage({ url: url ?? '', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 60_000, logger, namespace });
      opened.push(storage);
      return storage;
    };
    const [one, two] = [await open(), await open()];
    const guild = randomUUID();
    await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? one : two).usageTotals.add(guild, '2026-11-25', job(i, i % 10 === 9 ? 'refused' : 'delivered'))),
    );
    const [day, empty] = await one.usageTotals.days(guild, ['2026-11-25', '2026-11-24']);
    expect(day).toMatchObject({ images: 108, jobs: 54, estimatedUsd: 0.54, refusals: { 'quota.exceeded': 6 } });
    expect(day?.members).toEqual({ alice: { images: 60, jobs: 30, costUsd: 0.3 }, bob: { images: 48, jobs: 24, costUsd: 0.24 } });
    expect(new Set(day?.jobIds).size).toBe(54);
    expect(empty).toMatchObject({ images: 0, jobs: 0, jobIds: [] });
  });
});
