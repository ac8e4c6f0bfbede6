import { afterEach, describe, expect, it } from 'vitest';
import { QuotaAdmin } from '../../src/service/quota-admin.js';
import type { QuotaTarget } from '../../src/core/quota.js';
import type { AuditedChange } from '../../src/ports/audit-trail.js';
import { DEFAULT_SETTINGS } from '../../src/core/server-settings.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { GUILD_ID, MEMBER_ID, memberSubject } from '../fakes/jobs.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { LEVEL, memoryLogger } from '../fakes/memory-logger.js';

const ADMIN_ID = '200000000000000099';
const opened: Storage[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function setup() {
  const { logger, find } = memoryLogger();
  const clock = new ManualClock('2025-06-04T12:00:00Z');
  const storage = await openStorage({ url: 'memory://', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 600_000, logger, clock });
  opened.push(storage);
  return { admin: new QuotaAdmin({ quotas: storage.quotas, logger }), storage, find };
}

const member: QuotaTarget = { kind: 'member', guildId: GUILD_ID, userId: MEMBER_ID };
const server: QuotaTarget = { kind: 'server', guildId: GUILD_ID };

describe('QuotaAdmin', () => {
  it("sets a limit without a period in the server's period", async () => {
    const { admin } = await setup();
    await admin.setLimit(ADMIN_ID, server, 20, 'week');

    const change = await admin.setLimit(ADMIN_ID, member, 3);

    expect(change.after).toEqual({ limit: 3, period: 'week' });
    expect(await admin.show(memberSubject())).toMatchObject({ limit: 3, period: 'week', source: 'member' });
  });

  it('falls back to the configured period when the server has none', async () => {
    const { admin } = await setup();
    expect((await admin.setLimit(ADMIN_ID, member, 3)).after).toEqual({ limit: 3, period: 'day' });
  });

  it('keeps an explicit period', async () => {
    const { admin } = await setup();
    await admin.setLimit(ADMIN_ID, server, 20, 'week');
    expect((await admin.setLimit(ADMIN_ID, member, 3, 'month')).after).toEqual({ limit: 3, period: 'month' });
  });

  it('logs every limit change with actor, target, before and after', async () => {
    const { admin, find } = await setup();
    await admin.setLimit(ADMIN_ID, member, 3);
    await admin.setLimit(ADMIN_ID, member, 0);

    expect(find('quota limit changed')).toEqual([
      expect.objectContaining({ level: LEVEL.info, actorId: ADMIN_ID, action: 'quota.set', target: member, before: null, after: { limit: 3, period: 'day' } }),
      expect.objectContaining({ actorId: ADMIN_ID, target: member, before: { limit: 3, period: 'day' }, after: { limit: 0, period: 'day' } }),
    ]);
  });

  it('clears usage and logs the reset with actor, target, before and after', async () => {
    const { admin, storage, find } = await setup();
    await storage.quotas.reserve(memberSubject(), 'job1', 2);
    await storage.quotas.commit('job1', 2);

    await expect(admin.resetUsage(ADMIN_ID, GUILD_ID, MEMBER_ID)).resolves.toEqual({ usedBefore: 2 });

    expect(await admin.show(memberSubject())).toMatchObject({ used: 0, remaining: 5 });
    expect(find('quota usage reset')).toEqual([
      expect.objectContaining({
        actorId: ADMIN_ID,
        action: 'quota.reset',
        target: { guildId: GUILD_ID, userId: MEMBER_ID },
        before: { used: 2 },
        after: { used: 0 },
      }),
    ]);
  });

  it('tells the audit channel whom each change applies to, with the server’s language it was given', async () => {
    const { storage } = await setup();
    const { logger } = memoryLogger();
    const told: AuditedChange[] = [];
    const admin = new QuotaAdmin({
      quotas: storage.quotas,
      settings: { get: () => Promise.resolve({ ...DEFAULT_SETTINGS, auditChannelId: '400000000000000009' }) },
      audit: { settingsChanged: (entry) => Promise.resolve(void told.push(entry)) },
      logger,
    });

    await admin.setLimit(ADMIN_ID, server, 3, 'day', { locale: 'ja' });
    await admin.resetUsage(ADMIN_ID, GUILD_ID, MEMBER_ID, { locale: 'zh-CN' });
    await admin.setLimit(ADMIN_ID, member, 2);

    expect(told).toEqual([
      expect.objectContaining({ setting: '/quota set', target: server, locale: 'ja', after: { limit: 3, period: 'day' } }),
      expect.objectContaining({ setting: '/quota reset', target: member, locale: 'zh-CN' }),
      expect.objectContaining({ setting: '/quota set', target: member, locale: undefined }),
    ]);
  });
});
