/**
 * Members' actions (issue 32) in the service: counted in the server's day and told to its audit channel; a deleted
 * style told but not counted; nothing outside a server; a store or a channel that fails is logged and never fails the
 * action it records.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/core/server-settings.js';
import type { SettledJob } from '../../src/core/usage-totals.js';
import type { AuditedAction } from '../../src/ports/audit-trail.js';
import { MemberActions } from '../../src/service/member-actions.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { memoryLogger } from '../fakes/memory-logger.js';

function setup(options: { auditChannelId?: string; failing?: boolean } = {}) {
  const told: AuditedAction[] = [];
  const counted: [string, string, SettledJob][] = [];
  const log = memoryLogger();
  const fail = () => Promise.reject(new Error('down'));
  const actions = new MemberActions({
    settings: { get: () => (options.failing ? fail() : Promise.resolve({ ...DEFAULT_SETTINGS, auditChannelId: options.auditChannelId })) },
    audit: { memberAction: (entry) => (told.push(entry), Promise.resolve()) },
    totals: { add: (guildId, day, job) => (options.failing ? fail() : (counted.push([guildId, day, job]), Promise.resolve())) },
    clock: new ManualClock('2026-11-27T12:00:00Z'),
    logger: log.logger,
  });
  return { actions, told, counted, log };
}

describe('members’ actions', () => {
  it('counts an emoji in its server’s day and tells the audit channel', async () => {
    const { actions, told, counted } = setup({ auditChannelId: '9' });
    await actions.record({ guildId: 'g', userId: 'u', action: 'emoji', name: 'fox', locale: 'de' });
    expect(counted).toEqual([['g', '2026-11-27', expect.objectContaining({ userId: 'u', outcome: 'action', action: 'emoji', delivered: 0 })]]);
    expect(told).toEqual([{ guildId: 'g', auditChannelId: '9', userId: 'u', action: 'emoji', name: 'fox', locale: 'de' }]);
  });

  it('tells a deleted style but does not count it; tells nothing where the server has no audit channel', async () => {
    const { actions, told, counted } = setup({ auditChannelId: '9' });
    await actions.record({ guildId: 'g', userId: 'u', action: 'styleDeleted', name: 'noir' });
    expect(counted).toEqual([]);
    expect(told.map((t) => t.action)).toEqual(['styleDeleted']);
    const quiet = setup();
    await quiet.actions.record({ guildId: 'g', userId: 'u', action: 'style', name: 'noir' });
    expect(quiet.told).toEqual([]);
    expect(quiet.counted).toHaveLength(1);
  });

  it('records nothing outside a server', async () => {
    const { actions, told, counted } = setup({ auditChannelId: '9' });
    await actions.record({ guildId: null, userId: 'u', action: 'style', name: 'mine' });
    expect([told, counted]).toEqual([[], []]);
  });

  it('logs a store or settings that fail, and resolves', async () => {
    const { actions, log } = setup({ failing: true });
    await expect(actions.record({ guildId: 'g', userId: 'u', action: 'sticker', name: 'x' })).resolves.toBeUndefined();
    expect(log.find('could not count a member action')).toHaveLength(1);
    expect(log.find('could not tell the audit channel of a member action')).toHaveLength(1);
  });
});
