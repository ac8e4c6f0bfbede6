/**
 * Issue 28: the usage record's size does not grow with members. The bot counts a server's day in small counters, so
 * after 5,000 members the largest usage record it keeps (a counter row of its SQLite file) is no larger than after
 * 5, a delivered job and a refusal by a member the bot had not seen write only their own counters, and /usage reads
 * the same figures. The 4,997 members in between are added through the same store, as other processes would.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import sqlite3 from 'sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionHandle, UserFixture } from '../emulators/discord/index.js';
import type { SettledJob } from '../../src/core/usage-totals.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { startHarness, type Harness } from './harness.js';
import { lastText, settled } from './support.js';

/** The largest usage record in the bot's SQLite file (a ledger record or a counter row), in bytes of key and value. */
async function largestUsageRecord(file: string): Promise<number> {
  const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY);
  const max = (sql: string) =>
    new Promise<number>((resolve, reject) =>
      db.get(sql, [], (error: Error | null, row: { n: number | null }) => (error ? reject(error) : resolve(row.n ?? 0))),
    );
  try {
    const ledger = await max("SELECT max(length(key) + length(value)) AS n FROM quota_ledger WHERE key LIKE '%usage-%'");
    const counters = await max("SELECT max(length(key) + length(field) + 8) AS n FROM quota_counters WHERE key LIKE '%usage-%'");
    return Math.max(ledger, counters);
  } finally {
    db.close();
  }
}

describe('the usage record, end to end', () => {
  let h: Harness;
  let storage: Storage;
  let file: string;
  beforeAll(async () => {
    h = await startHarness({ sqlite: true, env: { QUOTA_DEFAULT_LIMIT: '1', LOG_LEVEL: 'debug' } });
    file = h.config.STORAGE_URL.slice('sqlite://'.length);
    storage = await openStorage({ url: h.config.STORAGE_URL, defaults: { limit: 1, period: 'day' }, jobLeaseMs: 60_000, logger: pino({ level: 'silent' }) });
  });
  afterAll(async () => {
    await (storage as Storage | undefined)?.close();
    await (h as Harness | undefined)?.close();
  });

  const imagine = async (user: UserFixture): Promise<InteractionHandle> => {
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'a lighthouse' }], { user });
    await handle.waitFor(settled);
    await h.waitForLog((entry) => entry['interactionId'] === handle.id && (entry.msg === 'interaction handled' || entry.msg === 'user-facing error'));
    return handle;
  };

  /** A member of the same id length as the fixtures' (18–19 digit snowflakes), delivered or refused. */
  const seeded = (i: number): SettledJob => {
    const refused = i % 5 === 0;
    return {
      jobId: randomUUID(),
      userId: String(1_100_000_000_000_000_000n + BigInt(i)),
      outcome: refused ? 'refused' : 'delivered',
      reason: refused ? 'quota.exceeded' : undefined,
      model: 'gpt-image-2',
      delivered: refused ? 0 : 1,
      reachedGateway: !refused,
    };
  };

  it("does not grow with members: 5,000 members' day keeps every record as small as 5 members' did", { timeout: 60_000 }, async () => {
    const { member, member2, member3 } = h.discord.fixtures.users;
    const guild = h.discord.fixtures.guild.id;
    const day = new Date().toISOString().slice(0, 10);
    // Five members: two through the bot (member2's second job refused: quota 1), three beside it.
    await imagine(member);
    await imagine(member2);
    await imagine(member2);
    for (let i = 1; i <= 3; i++) await storage.usageTotals.add(guild, day, seeded(i));
    const afterFive = await largestUsageRecord(file);

    let next = 4;
    const worker = async () => {
      while (next <= 4_997) await storage.usageTotals.add(guild, day, seeded(next++));
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    // Members 4,999 and 5,000 through the bot: member3 delivered, then refused.
    await imagine(member3);
    await imagine(member3);
    const afterFiveThousand = await largestUsageRecord(file);

    expect(afterFive).toBeGreaterThan(0);
    expect(afterFiveThousand).toBeLessThanOrEqual(afterFive);
    expect(afterFiveThousand).toBeLessThan(300);

    // /usage reads what was counted: 4,997 seeded (999 refused), 3 delivered and 2 refused through the bot.
    const handle = h.discord.slash('usage', [], { user: h.discord.fixtures.admin });
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200) || x.acks.some((a) => a.type === 4));
    expect(lastText(handle)).toContain('Images: 4,001 from 4,001 requests');
    expect(lastText(handle)).toContain('Refused: `quota.exceeded` 1001 ·');
  });
});
