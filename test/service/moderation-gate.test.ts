/**
 * The moderation strikes' gate over a real strike store (the ledger in memory): moderation refusals count and warn,
 * the one that makes the limit pauses and is told to the audit channel, a paused member is refused until the pause is
 * over or lifted, the reports count what happened, and nothing of it runs while strikes are off. A store that cannot
 * count, or an audit channel that cannot be read, never turns a refusal into another failure.
 */
import { describe, expect, it, vi } from 'vitest';
import { UserFacingError } from '../../src/errors.js';
import type { AuditedChange, AuditedPause } from '../../src/ports/audit-trail.js';
import { ModerationGate } from '../../src/service/moderation-gate.js';
import { phrase } from '../../src/core/phrase.js';
import { DEFAULT_SETTINGS } from '../../src/core/server-settings.js';
import { MemoryAtomicStore } from '../../src/storage/atomic-memory.js';
import { Ledger } from '../../src/storage/ledger.js';
import { LedgerStrikeStore } from '../../src/storage/strike-store.js';
import { GUILD_ID, imagineJob, MEMBER_ID } from '../fakes/jobs.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { memoryLogger } from '../fakes/memory-logger.js';

const HOUR = 3_600_000;
const START = Date.parse('2026-06-01T12:00:00Z');
const refusal = () => new UserFacingError('gateway.contentRejected');

function setup(options: { strikes?: number; auditChannelId?: string | undefined; failingSettings?: boolean } = {}) {
  const clock = new ManualClock(START);
  const { logger, find } = memoryLogger();
  const ledger = new Ledger(new MemoryAtomicStore(), 'memory://');
  const store = new LedgerStrikeStore(ledger);
  const paused: AuditedPause[] = [];
  const changes: AuditedChange[] = [];
  const auditChannelId = 'auditChannelId' in options ? options.auditChannelId : '500000000000000001';
  const gate = new ModerationGate({
    store,
    policy: { strikes: options.strikes ?? 3, windowMs: 24 * HOUR, pauseMs: 12 * HOUR },
    settings: {
      get: async () => {
        if (options.failingSettings) throw new Error('store down');
        return auditChannelId === undefined ? DEFAULT_SETTINGS : { ...DEFAULT_SETTINGS, auditChannelId };
      },
    },
    audit: { memberPaused: async (entry) => void paused.push(entry), settingsChanged: async (entry) => void changes.push(entry) },
    clock,
    logger,
  });
  const job = imagineJob();
  const strike = async () => gate.counted(refusal(), { ...job, origin: { ...job.origin, guildLocale: 'ja' } });
  const member = { guildId: GUILD_ID, userId: MEMBER_ID };
  return { gate, store, ledger, clock, paused, changes, find, strike, member, job };
}

/** The error `check` refuses with, or undefined when it lets the member through. */
async function refusedBy(check: Promise<void>): Promise<UserFacingError | undefined> {
  try {
    await check;
    return undefined;
  } catch (err) {
    if (err instanceof UserFacingError) return err;
    throw err;
  }
}

describe('ModerationGate', () => {
  it('warns at each moderation refusal how many are left, pauses at the limit and tells the audit channel once', async () => {
    const { gate, paused, strike, member, clock, job } = setup();
    expect(await strike()).toMatchObject({
      identifier: 'gateway.contentRejected',
      context: { detail: phrase('detail.moderation.warning', { left: 2, windowHours: 24, pauseHours: 12 }) },
    });
    clock.advance(HOUR);
    expect(await strike()).toMatchObject({ context: { detail: phrase('detail.moderation.warning', { left: 1, windowHours: 24, pauseHours: 12 }) } });
    expect(await refusedBy(gate.check(member))).toBeUndefined();
    const until = START + 13 * HOUR;
    expect(await strike()).toMatchObject({ identifier: 'moderation.pausedNow', context: { resetsAt: until, limit: 3 } });
    expect(paused).toEqual([
      { guildId: GUILD_ID, auditChannelId: '500000000000000001', userId: MEMBER_ID, strikes: 3, windowHours: 24, until, jobId: job.id, locale: 'ja' },
    ]);
    // A job already under way when the pause began: told of the pause, not paused again.
    expect(await strike()).toMatchObject({ identifier: 'moderation.pausedNow', context: { resetsAt: until } });
    expect(paused).toHaveLength(1);
    expect(await refusedBy(gate.check(member))).toMatchObject({ identifier: 'moderation.paused', context: { resetsAt: until } });
    expect(await gate.status(member)).toEqual({ strikes: 0, limit: 3, windowHours: 24, pausedUntil: until });
    clock.set(until);
    expect(await refusedBy(gate.check(member))).toBeUndefined();
    expect(await gate.status(member)).toEqual({ strikes: 0, limit: 3, windowHours: 24, pausedUntil: undefined });
  });

  it('leaves other errors as they are, and does nothing while strikes are off', async () => {
    const on = setup();
    const other = new UserFacingError('gateway.busy');
    const bug = new Error('bug');
    expect(await on.gate.counted(other, on.job)).toBe(other);
    expect(await on.gate.counted(bug, on.job)).toBe(bug);
    const off = setup({ strikes: 0 });
    const refused = refusal();
    expect(await off.gate.counted(refused, off.job)).toBe(refused);
    await off.store.strike(off.member, START, { strikes: 1, windowMs: HOUR, pauseMs: HOUR });
    expect(await refusedBy(off.gate.check(off.member))).toBeUndefined();
    expect(await off.gate.status(off.member)).toBeUndefined();
    expect(await off.gate.report(GUILD_ID, 'day')).toBeUndefined();
  });

  it('still pauses and tells the member when the audit channel cannot be read, and tells no channel where none is set', async () => {
    const failing = setup({ strikes: 1, failingSettings: true });
    expect(await failing.strike()).toMatchObject({ identifier: 'moderation.pausedNow' });
    expect(failing.find('could not tell the audit channel of a pause')).toHaveLength(1);
    const none = setup({ strikes: 1, auditChannelId: undefined });
    expect(await none.strike()).toMatchObject({ identifier: 'moderation.pausedNow' });
    expect(none.paused).toEqual([]);
    // Outside servers: paused too, with no server to tell.
    const dm = setup({ strikes: 1 });
    const inDms = { ...dm.job, subject: { ...dm.job.subject, guildId: null } };
    expect(await dm.gate.counted(refusal(), inDms)).toMatchObject({ identifier: 'moderation.pausedNow' });
    expect(dm.paused).toEqual([]);
    expect(await refusedBy(dm.gate.check({ guildId: null, userId: MEMBER_ID }))).toMatchObject({ identifier: 'moderation.paused' });
  });

  it('tells the refusal as it is when the store cannot count the strike', async () => {
    const { gate, store, job, find } = setup();
    vi.spyOn(store, 'strike').mockRejectedValue(new Error('store down'));
    const refused = refusal();
    expect(await gate.counted(refused, job)).toBe(refused);
    expect(find('could not count a moderation strike')).toHaveLength(1);
  });

  it("reports a period's strikes and pauses and who is paused now, the member's own record deciding", async () => {
    const { gate, store, ledger, strike, member, clock } = setup({ strikes: 2 });
    const other = { guildId: GUILD_ID, userId: '200000000000000002' };
    await store.strike(other, START - HOUR, { strikes: 1, windowMs: HOUR, pauseMs: 2 * HOUR });
    await strike();
    await strike();
    expect(await gate.report(GUILD_ID, 'day')).toEqual({
      strikes: 3,
      pauses: 2,
      paused: [
        { userId: other.userId, until: START + HOUR },
        { userId: MEMBER_ID, until: START + 12 * HOUR },
      ],
    });
    expect(await gate.report(GUILD_ID, 'day', MEMBER_ID)).toEqual({ strikes: 2, pauses: 1, paused: [{ userId: MEMBER_ID, until: START + 12 * HOUR }] });
    // A record cleared behind the server's list (a lift cut short) is no longer listed.
    await ledger.delete(`strikes:${GUILD_ID}:${other.userId}`);
    clock.advance(1);
    expect((await gate.report(GUILD_ID, 'week'))?.paused.map((p) => p.userId)).toEqual([member.userId]);
  });

  it('reports nothing for a quiet server, and runs without settings, audit or clock (the system clock)', async () => {
    const { logger } = memoryLogger();
    const store = new LedgerStrikeStore(new Ledger(new MemoryAtomicStore(), 'memory://'));
    const gate = new ModerationGate({ store, policy: { strikes: 1, windowMs: HOUR, pauseMs: HOUR }, logger });
    expect(await gate.report(GUILD_ID, 'month')).toEqual({ strikes: 0, pauses: 0, paused: [] });
    const before = Date.now();
    expect(await gate.counted(refusal(), imagineJob())).toMatchObject({ identifier: 'moderation.pausedNow' });
    expect((await gate.status({ guildId: GUILD_ID, userId: MEMBER_ID }))?.pausedUntil).toBeGreaterThanOrEqual(before + HOUR);
    expect((await gate.lift('900000000000000001', { guildId: GUILD_ID, userId: MEMBER_ID })).pausedUntil).toBeGreaterThanOrEqual(before + HOUR);
  });

  it('lifts a pause and clears the strikes for an admin, telling the audit channel what was there', async () => {
    const { gate, changes, strike, member } = setup();
    await strike();
    expect(await gate.lift('900000000000000001', member, { locale: 'de' })).toEqual({ strikes: 1, limit: 3, windowHours: 24, pausedUntil: undefined });
    await strike();
    await strike();
    await strike();
    const lifted = await gate.lift('900000000000000001', member);
    expect(lifted.pausedUntil).toBe(START + 12 * HOUR);
    expect(await refusedBy(gate.check(member))).toBeUndefined();
    expect(changes.map((c) => [c.setting, c.before, c.after, c.locale])).toEqual([
      ['/quota strikes-clear', { strikes: 1, pausedUntil: undefined }, { strikes: 0 }, 'de'],
      ['/quota strikes-clear', { strikes: 0, pausedUntil: '2026-06-02T00:00:00.000Z' }, { strikes: 0 }, undefined],
    ]);
    expect(changes[0]?.target).toEqual({ kind: 'member', guildId: GUILD_ID, userId: MEMBER_ID });
    const quiet = setup({ auditChannelId: undefined });
    await quiet.gate.lift('900000000000000001', quiet.member);
    expect(quiet.changes).toEqual([]);
  });
});
