/**
 * Moderation strikes on every store: two stores opened on one place (as two processes would; memory:// is one
 * process's own, so there it is one store twice) strike one member at once and exactly one strike pauses them, the
 * server's record counting every strike and that one pause; strikes past the window no longer count, a pause ends by
 * itself, and clearing deletes the member's strikes and pause (their server's record included) and nobody else's.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { countStrikes, pausedUntil, type StrikeMember } from '../../src/core/moderation-strikes.js';
import { isoDate } from '../../src/core/periods.js';
import { MemoryAtomicStore } from '../../src/storage/atomic-memory.js';
import { Ledger } from '../../src/storage/ledger.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { LedgerStrikeStore } from '../../src/storage/strike-store.js';

const REDIS_URL = process.env['REDIS_URL'];
const POSTGRES_URL = process.env['POSTGRES_URL'];
const logger = pino({ level: 'silent' });
const opened: Storage[] = [];
const HOUR = 3_600_000;
const NOW = Date.parse('2026-06-01T12:00:00Z');
const policy = { strikes: 3, windowMs: 24 * HOUR, pauseMs: 24 * HOUR };
const GUILD = '100000000000000001';

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const places: [string, string | undefined][] = [
  ['memory', 'memory://'],
  ['SQLite', `sqlite://${join(mkdtempSync(join(tmpdir(), 'strikes-')), 'bot.sqlite')}`],
  ['Redis', REDIS_URL],
  ['PostgreSQL', POSTGRES_URL],
];

describe.each(places)('moderation strikes on %s', (name, url) => {
  const skipped = url === undefined ? ` (skipped: no ${name} URL)` : '';
  /** Two stores on one place: two processes, or for memory:// the one store twice. */
  const openTwo = async (): Promise<[Storage, Storage]> => {
    const namespace = `imagine-bot-test-${randomUUID()}`;
    const open = async () => {
      const storage = await openStorage({ url: url ?? '', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 60_000, logger, namespace });
      opened.push(storage);
      return storage;
    };
    const one = await open();
    return [one, url === 'memory://' ? one : await open()];
  };

  it.skipIf(url === undefined)(`pauses a member exactly once for strikes from two stores at once, and counts each${skipped}`, async () => {
    const [one, two] = await openTwo();
    const alice: StrikeMember = { guildId: GUILD, userId: 'alice' };
    const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? one : two).strikes.strike(alice, NOW + i, policy)));
    const pauses = outcomes.filter((o) => o.pausedUntil !== undefined);
    expect(pauses).toHaveLength(1);
    expect(pausedUntil(await two.strikes.read(alice), NOW + 10)).toBe(pauses[0]?.pausedUntil);
    const server = await one.strikes.server(GUILD);
    expect(countStrikes(server, [isoDate(NOW)])).toEqual({ strikes: 8, pauses: 1 });
    expect(server?.paused).toEqual({ alice: pauses[0]?.pausedUntil });
  });

  it.skipIf(url === undefined)(`forgets strikes past the window, ends a pause by itself and starts again after it${skipped}`, async () => {
    const [one, two] = await openTwo();
    const bob: StrikeMember = { guildId: GUILD, userId: 'bob' };
    await one.strikes.strike(bob, NOW, policy);
    await two.strikes.strike(bob, NOW + 3 * HOUR, policy);
    // The first strike is 25 hours old by then: two within the window, no pause.
    const third = await one.strikes.strike(bob, NOW + 25 * HOUR, policy);
    expect(third).toEqual({ record: { v: 1, strikes: [NOW + 3 * HOUR, NOW + 25 * HOUR] }, strikes: 2 });
    const fourth = await two.strikes.strike(bob, NOW + 26 * HOUR, policy);
    expect(fourth.pausedUntil).toBe(NOW + 50 * HOUR);
    // A strike while paused (a job already under way) changes nothing.
    expect((await one.strikes.strike(bob, NOW + 27 * HOUR, policy)).pausedUntil).toBeUndefined();
    expect(pausedUntil(await one.strikes.read(bob), NOW + 50 * HOUR - 1)).toBe(NOW + 50 * HOUR);
    expect(pausedUntil(await one.strikes.read(bob), NOW + 50 * HOUR)).toBeUndefined();
    expect(await one.strikes.strike(bob, NOW + 51 * HOUR, policy)).toEqual({ record: { v: 1, strikes: [NOW + 51 * HOUR] }, strikes: 1 });
    const server = await two.strikes.server(GUILD);
    expect(countStrikes(server, [isoDate(NOW), isoDate(NOW + 25 * HOUR), isoDate(NOW + 51 * HOUR)], 'bob')).toEqual({ strikes: 6, pauses: 1 });
    // A pause that is over leaves the server's list at its next write.
    expect(server?.paused).toEqual({});
  });

  it.skipIf(url === undefined)(`clears one member's strikes and pause, their server's list included, and nobody else's${skipped}`, async () => {
    const [one, two] = await openTwo();
    const carol: StrikeMember = { guildId: GUILD, userId: 'carol' };
    const dave: StrikeMember = { guildId: GUILD, userId: 'dave' };
    const carolElsewhere: StrikeMember = { guildId: '100000000000000009', userId: 'carol' };
    const carolInDms: StrikeMember = { guildId: null, userId: 'carol' };
    for (const member of [carol, carol, carol, dave, dave, dave, carolElsewhere, carolInDms]) await one.strikes.strike(member, NOW, policy);
    const cleared = await two.strikes.clear(carol, NOW + 1);
    expect(cleared?.pausedUntil).toBe(NOW + 24 * HOUR);
    expect(await one.strikes.read(carol)).toBeUndefined();
    expect((await one.strikes.server(GUILD))?.paused).toEqual({ dave: NOW + 24 * HOUR });
    expect(pausedUntil(await one.strikes.read(dave), NOW + 1)).toBe(NOW + 24 * HOUR);
    expect((await one.strikes.read(carolElsewhere))?.strikes).toEqual([NOW]);
    expect((await two.strikes.clear(carolInDms, NOW))?.strikes).toEqual([NOW]);
    expect(await one.strikes.read(carolInDms)).toBeUndefined();
    // The day's counts stay: the strikes happened.
    expect(countStrikes(await one.strikes.server(GUILD), [isoDate(NOW)])).toEqual({ strikes: 6, pauses: 2 });
  });
});

describe('unreadable strike records', () => {
  it('start again instead of refusing or pausing anyone', async () => {
    const ledger = new Ledger(new MemoryAtomicStore(), 'memory://');
    const store = new LedgerStrikeStore(ledger);
    const erin: StrikeMember = { guildId: GUILD, userId: 'erin' };
    await ledger.writeRaw('strikes:100000000000000001:erin', '{"v":1,"pausedUntil":"soon"', 60_000);
    await ledger.writeRaw('strikes-server:100000000000000001', 'not json', 60_000);
    expect(await store.read(erin)).toBeUndefined();
    expect(await store.strike(erin, NOW, policy)).toEqual({ record: { v: 1, strikes: [NOW] }, strikes: 1 });
    expect(countStrikes(await store.server(GUILD), [isoDate(NOW)])).toEqual({ strikes: 1, pauses: 0 });
  });
});
