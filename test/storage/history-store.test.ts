/**
 * Members' histories on every store: two stores opened on one place (as two processes would) add entries at once and
 * the member's record holds the newest 100 of them, in order, apart from other members and servers; old entries go on
 * the next write; clearing deletes the record, as a read from the other store shows.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_HISTORY_ENTRIES, type HistoryEntry, type HistoryOwner } from '../../src/core/history-entries.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';

const REDIS_URL = process.env['REDIS_URL'];
const POSTGRES_URL = process.env['POSTGRES_URL'];
const logger = pino({ level: 'silent' });
const opened: Storage[] = [];
const DAY_MS = 86_400_000;

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const entry = (i: number, createdAt = i): HistoryEntry => ({
  jobId: `job-${i}`,
  kind: 'imagine',
  prompt: `prompt ${i}`,
  model: 'gpt-image-2',
  size: null,
  images: 1,
  createdAt,
  guildId: '100000000000000001',
  channelId: '100000000000000002',
  messageId: `5000000000000${String(i).padStart(5, '0')}`,
});

const places: [string, string | undefined][] = [
  ['SQLite', `sqlite://${join(mkdtempSync(join(tmpdir(), 'history-')), 'bot.sqlite')}`],
  ['Redis', REDIS_URL],
  ['PostgreSQL', POSTGRES_URL],
];

describe.each(places)('members’ histories on %s', (name, url) => {
  const skipped = url === undefined ? ` (skipped: no ${name} URL)` : '';
  const open = async (namespace: string) => {
    const storage = await openStorage({ url: url ?? '', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 60_000, logger, namespace });
    opened.push(storage);
    return storage;
  };
  const retention = { keepFrom: 0, keepMs: 30 * DAY_MS };

  it.skipIf(url === undefined)(`keeps the newest ${MAX_HISTORY_ENTRIES} entries of two stores writing at once, per member and server${skipped}`, async () => {
    const namespace = `imagine-bot-test-${randomUUID()}`;
    const [one, two] = [await open(namespace), await open(namespace)];
    const alice: HistoryOwner = { guildId: '100000000000000001', userId: 'alice' };
    const bob: HistoryOwner = { guildId: '100000000000000001', userId: 'bob' };
    const aliceElsewhere: HistoryOwner = { guildId: '100000000000000009', userId: 'alice' };
    await Promise.all([
      ...Array.from({ length: 120 }, (_, i) => (i % 2 === 0 ? one : two).history.add(alice, entry(i), retention)),
      two.history.add(bob, entry(1000), retention),
      one.history.add(aliceElsewhere, entry(2000), retention),
    ]);
    const kept = await one.history.entries(alice);
    expect(kept.map((e) => e.createdAt)).toEqual(Array.from({ length: MAX_HISTORY_ENTRIES }, (_, i) => 119 - i));
    expect((await two.history.entries(bob)).map((e) => e.jobId)).toEqual(['job-1000']);
    expect((await two.history.entries(aliceElsewhere)).map((e) => e.jobId)).toEqual(['job-2000']);
  });

  it.skipIf(url === undefined)(`drops entries past the retention, and clearing deletes the member's record only${skipped}`, async () => {
    const namespace = `imagine-bot-test-${randomUUID()}`;
    const [one, two] = [await open(namespace), await open(namespace)];
    const alice: HistoryOwner = { guildId: null, userId: 'alice' };
    const bob: HistoryOwner = { guildId: null, userId: 'bob' };
    await one.history.add(alice, entry(1, 1 * DAY_MS), retention);
    await one.history.add(alice, entry(2, 40 * DAY_MS), { ...retention, keepFrom: 10 * DAY_MS });
    await one.history.add(bob, entry(3), retention);
    expect((await two.history.entries(alice)).map((e) => e.jobId)).toEqual(['job-2']);

    await two.history.clear(alice);
    expect(await one.history.entries(alice)).toEqual([]);
    expect((await one.history.entries(bob)).map((e) => e.jobId)).toEqual(['job-3']);
    // A job delivered after the clear starts a new history.
    await one.history.add(alice, entry(4, 41 * DAY_MS), retention);
    expect((await two.history.entries(alice)).map((e) => e.jobId)).toEqual(['job-4']);
  });
});
