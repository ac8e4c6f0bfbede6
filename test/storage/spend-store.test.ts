/**
 * The money limits on every store (issue 17): estimates held under the limit, exact when two stores (as two
 * processes) reserve at once; actual costs committed beyond their estimate; refunds; the levels (member, roles,
 * server) and their removal; members without a money limit neither held nor counted.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import type { QuotaSubject } from '../../src/core/quota.js';

const REDIS_URL = process.env['REDIS_URL'];
const POSTGRES_URL = process.env['POSTGRES_URL'];
const logger = pino({ level: 'silent' });
const opened: Storage[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const places: [string, string | undefined][] = [
  ['memory', 'memory://'],
  ['SQLite', `sqlite://${join(mkdtempSync(join(tmpdir(), 'spend-')), 'bot.sqlite')}`],
  ['Redis', REDIS_URL],
  ['PostgreSQL', POSTGRES_URL],
];

describe.each(places)('money limits on %s', (name, url) => {
  const skipped = url === undefined ? ` (skipped: no ${name} URL)` : '';
  const namespace = `imagine-bot-test-${randomUUID()}`;
  const open = async () => {
    const storage = await openStorage({ url: url ?? '', defaults: { limit: 100, period: 'day' }, jobLeaseMs: 60_000, logger, namespace });
    opened.push(storage);
    return storage;
  };
  const member = (guildId: string, roleIds: string[] = []): QuotaSubject => ({ guildId, userId: 'alice', roleIds });

  it.skipIf(url === undefined)(`holds estimates exactly under a server's limit across two stores${skipped}`, async () => {
    const one = await open();
    // Memory is one process's store: its "second process" is the same store.
    const two = name === 'memory' ? one : await open();
    const guild = randomUUID();
    await one.spend.setLimit({ kind: 'server', guildId: guild }, { usd: 1, period: 'day' });
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? one : two).spend.reserve(member(guild), `job-${i}`, 0.3)));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(3);
    const refused = outcomes.find((o) => !o.ok);
    expect(refused?.ok === false && refused.status).toMatchObject({ usd: 1, reserved: 0.9, spent: 0, source: 'server' });
    expect(await two.spend.status(member(guild))).toMatchObject({ usd: 1, period: 'day', spent: 0, reserved: 0.9 });
    const held = outcomes.flatMap((o, i) => (o.ok ? [`job-${i}`] : []));
    // The first costs more than its estimate: the actual cost is charged; the second fails and is refunded.
    await one.spend.commit(held[0] ?? '', 0.45);
    await one.spend.commit(held[0] ?? '', 0.45);
    await two.spend.refund(held[1] ?? '');
    expect(await one.spend.status(member(guild))).toMatchObject({ spent: 0.45, reserved: 0.3 });
    expect((await one.spend.reserve(member(guild), 'late', 0.3)).ok).toBe(false);
    expect((await one.spend.reserve(member(guild), 'small', 0.25)).ok).toBe(true);
  });

  it.skipIf(url === undefined)(`applies member, role and server limits in order, and removes them${skipped}`, async () => {
    const storage = await open();
    const guild = randomUUID();
    expect(await storage.spend.status(member(guild))).toBeUndefined();
    // No money limit: nothing held, nothing counted.
    expect(await storage.spend.reserve(member(guild), 'free', 1_000)).toEqual({ ok: true, held: false });
    await storage.spend.commit('free', 1_000);
    expect(await storage.spend.status(member(guild))).toBeUndefined();

    await storage.spend.setLimit({ kind: 'server', guildId: guild }, { usd: 2, period: 'month' });
    await storage.spend.setLimit({ kind: 'role', guildId: guild, roleId: 'r1' }, { usd: 5, period: 'month' });
    await storage.spend.setLimit({ kind: 'role', guildId: guild, roleId: 'r2' }, { usd: 1, period: 'day' });
    expect(await storage.spend.status(member(guild))).toMatchObject({ usd: 2, source: 'server', spent: 0 });
    expect(await storage.spend.status(member(guild, ['r1', 'r2']))).toMatchObject({ usd: 1, period: 'day', source: 'role' });
    const change = await storage.spend.setLimit({ kind: 'member', guildId: guild, userId: 'alice' }, { usd: 0.5, period: 'week' });
    expect(change).toEqual({ before: undefined, after: { usd: 0.5, period: 'week' } });
    expect(await storage.spend.status(member(guild, ['r1']))).toMatchObject({ usd: 0.5, period: 'week', source: 'member' });
    expect(await storage.spend.setLimit({ kind: 'member', guildId: guild, userId: 'alice' }, undefined)).toEqual({
      before: { usd: 0.5, period: 'week' },
      after: undefined,
    });
    expect(await storage.spend.status(member(guild, ['r1']))).toMatchObject({ usd: 5, source: 'role' });
    await storage.spend.setLimit({ kind: 'server', guildId: guild }, undefined);
    expect(await storage.spend.status(member(guild))).toBeUndefined();
    // The image quota is a ledger of its own: the money limits leave it as it was.
    expect(await storage.quotas.status(member(guild))).toMatchObject({ limit: 100, used: 0, reserved: 0, source: 'default' });
  });
  it.skipIf(url === undefined)(`multiplies the limit that applies by the member's perks: images and money each by their own${skipped}`, async () => {
    const storage = await open();
    const guild = randomUUID();
    await storage.spend.setLimit({ kind: 'role', guildId: guild, roleId: 'vip' }, { usd: 1, period: 'day' });
    await storage.quotas.setLimit({ kind: 'server', guildId: guild }, { limit: 2, period: 'day' });
    const perked: QuotaSubject = { ...member(guild, ['vip']), perks: { lane: 'priority', quotaMultiplier: 3, moneyMultiplier: 2 } };
    expect(await storage.spend.status(perked)).toMatchObject({ usd: 2, source: 'role' });
    expect(await storage.quotas.status(perked)).toMatchObject({ limit: 6, source: 'server' });
    expect((await storage.spend.reserve(perked, 'big', 1.5)).ok).toBe(true);
    expect((await storage.quotas.reserve(perked, 'many', 6)).ok).toBe(true);
    // Without the perks, the same member is held to the limits as set.
    expect((await storage.quotas.reserve(member(guild, ['vip']), 'one-more', 1)).ok).toBe(false);
    expect(await storage.spend.status(member(guild, ['vip']))).toMatchObject({ usd: 1 });
  });
});
