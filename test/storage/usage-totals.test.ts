/**
 * Servers' daily usage totals on every store: two stores opened on one place (as two processes would) add jobs at
 * once, and the day holds every one of them. A day stored as one record before issue 28 still reads, with what its
 * counters added since.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_JOB_IDS_PER_DAY, type SettledJob } from '../../src/core/usage-totals.js';
import { openBackend } from '../../src/storage/open-backend.js';
import { createStorage, openStorage, type Storage } from '../../src/storage/open-storage.js';
import { parseStorageUrl } from '../../src/storage/storage-url.js';

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

/** Every fourth job a draft ($0.05 at high quality; role r1, every other one r2 too), the one after it an HD re-render (r1). */
const drafted = (i: number, settled: SettledJob): SettledJob =>
  i % 4 === 0
    ? { ...settled, roleIds: i % 8 === 0 ? ['r1', 'r2'] : ['r1'], drafting: { use: { kind: 'draft', highEstimateUsd: 0.05 }, requested: 2 } }
    : i % 4 === 1
      ? { ...settled, roleIds: ['r1'], drafting: { use: { kind: 'hd' }, requested: 2 } }
      : settled;

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
    // Members' actions (issue 32) count only themselves: 3 emoji, 1 sticker, 2 showcase posts, 2 styles.
    const actions = (['emoji', 'emoji', 'emoji', 'sticker', 'showcase', 'showcase', 'style', 'style'] as const).map((action, i): SettledJob => ({
      jobId: `action-${String(i)}`,
      userId: 'carol',
      outcome: 'action',
      action,
      delivered: 0,
      reachedGateway: false,
    }));
    await Promise.all([
      ...Array.from({ length: 60 }, (_, i) =>
        (i % 2 === 0 ? one : two).usageTotals.add(guild, '2026-11-25', drafted(i, job(i, i % 10 === 9 ? 'refused' : 'delivered'))),
      ),
      ...actions.map((action, i) => (i % 2 === 0 ? one : two).usageTotals.add(guild, '2026-11-25', action)),
    ]);
    expect((await two.usageTotals.days(guild, ['2026-11-25']))[0]?.actions).toEqual({ emoji: 3, sticker: 1, showcase: 2, style: 2 });
    // Drafting's counters add up too: 15 drafts of 2 images ($0.05 each at high quality), 12 HD re-renders delivered.
    expect((await one.usageTotals.days(guild, ['2026-11-25']))[0]?.drafts).toEqual({ jobs: 30, hd: 24, wouldBeUsd: 0.75, costUsd: 0.27 });
    // And by member (alice drafts, bob makes HD) and by role (r2: 8 of the drafts).
    const [drafting] = await two.usageTotals.days(guild, ['2026-11-25']);
    expect(drafting?.memberDrafts).toEqual({
      alice: { jobs: 30, hd: 0, wouldBeUsd: 0.75, costUsd: 0.15 },
      bob: { jobs: 0, hd: 24, wouldBeUsd: 0, costUsd: 0.12 },
    });
    expect(drafting?.roleDrafts).toEqual({
      r1: { jobs: 30, hd: 24, wouldBeUsd: 0.75, costUsd: 0.27 },
      r2: { jobs: 16, hd: 0, wouldBeUsd: 0.4, costUsd: 0.08 },
    });
    const [day, empty] = await one.usageTotals.days(guild, ['2026-11-25', '2026-11-24']);
    expect(day).toMatchObject({ images: 108, jobs: 54, estimatedUsd: 0.54, refusals: { 'quota.exceeded': 6 } });
    expect(day?.members).toEqual({ alice: { images: 60, jobs: 30, costUsd: 0.3 }, bob: { images: 48, jobs: 24, costUsd: 0.24 } });
    expect(new Set(day?.jobIds).size).toBe(54);
    expect(empty).toMatchObject({ images: 0, jobs: 0, jobIds: [] });
  });
});

describe('a usage day stored before issue 28', () => {
  it('reads as its one old record and the counters since, added together; the old record is never written again', async () => {
    const backend = await openBackend(parseStorageUrl('memory://'), { namespace: 'legacy', connectTimeoutMs: 1_000, logger });
    const storage = createStorage(backend, { defaults: { limit: 5, period: 'day' }, jobLeaseMs: 60_000, logger });
    opened.push(storage);
    const legacy = {
      v: 1,
      images: 4,
      jobs: 2,
      reportedUsd: 0,
      estimatedUsd: 0.02,
      members: { alice: { images: 4, jobs: 2, costUsd: 0.02 } },
      models: { 'gpt-image-2': { images: 4, jobs: 2, costUsd: 0.02 } },
      refusals: { 'quota.exceeded': 1 },
      refusedMembers: { bob: 1 },
      roles: { r1: { images: 4, jobs: 2, costUsd: 0.02, refused: 0, members: ['alice'] } },
      failures: 1,
      jobIds: ['old-1', 'old-2'],
      jobIdsCut: false,
    };
    const text = JSON.stringify(legacy);
    await backend.ledger.writeRaw('usage-day:g:2026-11-25', text, 60_000);
    await storage.usageTotals.add('g', '2026-11-25', { ...job(0), roleIds: ['r1', 'r2'] });
    await storage.usageTotals.add('g', '2026-11-25', { ...job(1, 'refused'), roleIds: ['r1'] });
    await storage.usageTotals.add('g', '2026-11-25', { ...job(2, 'failed'), reachedGateway: true });
    const [day] = await storage.usageTotals.days('g', ['2026-11-25']);
    expect(day).toEqual({
      v: 1,
      images: 6,
      jobs: 3,
      reportedUsd: 0,
      estimatedUsd: 0.03,
      members: { alice: { images: 6, jobs: 3, costUsd: 0.03 } },
      models: { 'gpt-image-2': { images: 6, jobs: 3, costUsd: 0.03 } },
      refusals: { 'quota.exceeded': 2 },
      refusedMembers: { bob: 2 },
      roles: {
        r1: { images: 6, jobs: 3, costUsd: 0.03, refused: 1, members: ['alice', 'bob'] },
        r2: { images: 2, jobs: 1, costUsd: 0.01, refused: 0, members: ['alice'] },
      },
      failures: 2,
      jobIds: ['old-1', 'old-2', 'job-0', 'job-2'],
      jobIdsCut: false,
      promptHelpCalls: 0,
      promptHelpUsd: 0,
      promptHelpMembers: {},
      drafts: { jobs: 0, hd: 0, wouldBeUsd: 0, costUsd: 0 },
      memberDrafts: {},
      roleDrafts: {},
      actions: { emoji: 0, sticker: 0, showcase: 0, style: 0 },
    });
    expect(await backend.ledger.get('usage-day:g:2026-11-25')).toEqual(legacy);
  });

  it("counts prompt help's chat calls and cost by day and member, whatever became of the job, and a description alone", async () => {
    const backend = await openBackend(parseStorageUrl('memory://'), { namespace: 'prompt-help', connectTimeoutMs: 1_000, logger });
    const storage = createStorage(backend, { defaults: { limit: 5, period: 'day' }, jobLeaseMs: 60_000, logger });
    await storage.usageTotals.add('g', '2026-11-25', { ...job(0, 'failed'), reachedGateway: true, promptHelp: { calls: 1, usd: 0.0012 } });
    await storage.usageTotals.add('g', '2026-11-25', {
      jobId: 'describe-1',
      userId: 'bob',
      outcome: 'described',
      delivered: 0,
      reachedGateway: false,
      promptHelp: { calls: 1, usd: 0.0005 },
    });
    const [day] = await storage.usageTotals.days('g', ['2026-11-25']);
    expect(day).toMatchObject({ promptHelpCalls: 2, promptHelpUsd: 0.0017, promptHelpMembers: { alice: 0.0012, bob: 0.0005 }, failures: 1, jobs: 0 });
    await storage.close();
  });

  it('lists the first 5,000 jobs that reached the gateway in order, and says the list is cut after them', async () => {
    const backend = await openBackend(parseStorageUrl('memory://'), { namespace: 'cut', connectTimeoutMs: 1_000, logger });
    const storage = createStorage(backend, { defaults: { limit: 5, period: 'day' }, jobLeaseMs: 60_000, logger });
    opened.push(storage);
    for (let i = 0; i < MAX_JOB_IDS_PER_DAY + 2; i++) await storage.usageTotals.add('g', '2026-11-25', job(i));
    const [day] = await storage.usageTotals.days('g', ['2026-11-25']);
    expect(day?.jobs).toBe(MAX_JOB_IDS_PER_DAY + 2);
    expect(day?.jobIds).toEqual(Array.from({ length: MAX_JOB_IDS_PER_DAY }, (_, i) => `job-${i}`));
    expect(day?.jobIdsCut).toBe(true);
  });
});
