/**
 * Favorites and the showcase's claims on every store, with two stores opened on one place (as two processes would):
 * stars at once keep the newest 100 favorites of a member, each result once; of many stars of one result at once,
 * exactly one claims its showcase post; a given-up claim lets a later star claim it, a posted one never; removals and
 * stars at once from two stores lose no entry and bring none back.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_FAVORITES, type FavoriteEntry } from '../../src/core/favorites.js';
import type { HistoryOwner } from '../../src/core/history-entries.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';

const REDIS_URL = process.env['REDIS_URL'];
const POSTGRES_URL = process.env['POSTGRES_URL'];
const logger = pino({ level: 'silent' });
const opened: Storage[] = [];
const KEEP_MS = 30 * 86_400_000;
const GUILD = '100000000000000001';

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const favorite = (i: number): FavoriteEntry => ({
  jobId: `job-${i % 110}`,
  prompt: `prompt ${i}`,
  authorId: '200000000000000001',
  guildId: GUILD,
  channelId: '100000000000000002',
  messageId: `5000000000000${String(i).padStart(5, '0')}`,
  starredAt: i,
});

const places: [string, string | undefined][] = [
  ['memory', 'memory://'],
  ['SQLite', `sqlite://${join(mkdtempSync(join(tmpdir(), 'favorites-')), 'bot.sqlite')}`],
  ['Redis', REDIS_URL],
  ['PostgreSQL', POSTGRES_URL],
];

describe.each(places)('favorites and the showcase on %s', (name, url) => {
  const skipped = url === undefined ? ` (skipped: no ${name} URL)` : '';
  const open = async (namespace: string) => {
    const storage = await openStorage({ url: url ?? '', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 60_000, logger, namespace });
    opened.push(storage);
    return storage;
  };
  /** Two stores on one place; in memory there is only one process, so one store. */
  const pair = async () => {
    const namespace = `imagine-bot-test-${randomUUID()}`;
    const one = await open(namespace);
    return url === 'memory://' ? [one, one] : [one, await open(namespace)];
  };

  it.skipIf(url === undefined)(`keeps a member's newest ${MAX_FAVORITES} favorites, each result once, from two stores at once${skipped}`, async () => {
    const [one, two] = await pair();
    const alice: HistoryOwner = { guildId: GUILD, userId: 'alice' };
    await Promise.all(Array.from({ length: 130 }, (_, i) => (i % 2 === 0 ? one : two)!.favorites.add(alice, favorite(i), KEEP_MS)));
    const entries = await one!.favorites.entries(alice);
    expect(entries).toHaveLength(MAX_FAVORITES);
    expect(new Set(entries.map((e) => e.jobId)).size).toBe(MAX_FAVORITES);
    expect(await two!.favorites.entries({ guildId: GUILD, userId: 'bob' })).toEqual([]);
    const fresh = { ...favorite(500), jobId: 'job-new' };
    expect(await one!.favorites.add(alice, fresh, KEEP_MS)).toEqual({ total: MAX_FAVORITES, dropped: 1, already: false });
    expect(await two!.favorites.add(alice, fresh, KEEP_MS)).toEqual({ total: MAX_FAVORITES, dropped: 0, already: true });
    expect((await one!.favorites.entries(alice))[0]?.jobId).toBe('job-new');
  });

  it.skipIf(url === undefined)(`removes favorites while others are added, from two stores at once, losing none${skipped}`, async () => {
    const [one, two] = await pair();
    const alice: HistoryOwner = { guildId: GUILD, userId: 'alice' };
    for (let i = 0; i < 40; i += 1) await one!.favorites.add(alice, favorite(i), KEEP_MS);
    const removals = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? one : two)!.favorites.remove(alice, `job-${i}`, KEEP_MS));
    const stars = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? two : one)!.favorites.add(alice, favorite(60 + i), KEEP_MS));
    const [removed] = await Promise.all([Promise.all(removals), Promise.all(stars)]);
    expect(removed.every((r) => r.removed)).toBe(true);
    expect(removed.find((r) => r.prompt === 'prompt 7')).toBeDefined();
    const kept = (await two!.favorites.entries(alice)).map((e) => e.jobId).sort();
    const expected = [...Array.from({ length: 20 }, (_, i) => `job-${20 + i}`), ...Array.from({ length: 20 }, (_, i) => `job-${60 + i}`)].sort();
    expect(kept).toEqual(expected);
    expect(await one!.favorites.remove(alice, 'job-3', KEEP_MS)).toEqual({ removed: false, total: 40, prompt: undefined });
    expect(await two!.favorites.remove({ guildId: GUILD, userId: 'bob' }, 'job-30', KEEP_MS)).toMatchObject({ removed: false, total: 0 });
    expect(await one!.favorites.remove(alice, 'job-30', KEEP_MS)).toEqual({ removed: true, total: 39, prompt: 'prompt 30' });
    expect((await two!.favorites.entries(alice)).map((e) => e.jobId)).not.toContain('job-30');
  });

  it.skipIf(url === undefined)(`lets exactly one of many stars at once claim a result's showcase post${skipped}`, async () => {
    const [one, two] = await pair();
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? one : two)!.favorites.claimShowcase(GUILD, 'job-1', { holder: `h${i}`, by: '2000', at: i }, 60_000)),
    );
    expect(claims.filter((c) => c === 'claimed')).toHaveLength(1);
    const winner = `h${claims.indexOf('claimed')}`;
    await two!.favorites.settleShowcase(GUILD, 'job-1', 'not-the-holder', undefined, KEEP_MS);
    expect(await one!.favorites.claimShowcase(GUILD, 'job-1', { holder: 'late', by: '2000', at: 99 }, 60_000)).toBe('taken');
    await two!.favorites.settleShowcase(GUILD, 'job-1', winner, '300000000000000001', KEEP_MS);
    expect(await one!.favorites.claimShowcase(GUILD, 'job-1', { holder: 'later', by: '2000', at: 99 }, 60_000)).toBe('taken');
  });

  it.skipIf(url === undefined)(`gives a failed post's claim back, so a later star may post it${skipped}`, async () => {
    const [one, two] = await pair();
    expect(await one!.favorites.claimShowcase(GUILD, 'job-2', { holder: 'first', by: '2000', at: 1 }, 60_000)).toBe('claimed');
    await one!.favorites.settleShowcase(GUILD, 'job-2', 'first', undefined, KEEP_MS);
    expect(await two!.favorites.claimShowcase(GUILD, 'job-2', { holder: 'second', by: '2000', at: 2 }, 60_000)).toBe('claimed');
  });
});
