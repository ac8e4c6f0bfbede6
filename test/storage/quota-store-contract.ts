import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QuotaLimit, QuotaSubject } from '../../src/core/quota.js';
import { StorageCorruptError } from '../../src/storage/errors.js';
import type { Backend } from '../../src/storage/open-backend.js';
import { type Storage, createStorage } from '../../src/storage/open-storage.js';
import { periodWindow } from '../../src/core/periods.js';
import { ManualClock, memoryLogger } from './helpers.js';

/** A fresh, empty backend; `cleanup` removes what the test wrote and disconnects. */
export interface OpenedBackend {
  backend: Backend;
  /**
   * Another connection to the same data (same place, same namespace), as a second process would open it; closed by
   * `cleanup`. On memory:// it is the same backend.
   */
  twin: () => Promise<Backend>;
  /** Where the data is, for child processes; undefined where no other process can reach it (memory://). */
  shared?: { url: string; namespace: string } | undefined;
  cleanup: () => Promise<void>;
}

/** Opens a fresh, empty backend. */
export type OpenBackend = () => Promise<OpenedBackend>;

const DEFAULTS: QuotaLimit = { limit: 5, period: 'day' };
export const LEASE_MS = 60_000;
const START = '2025-03-12T12:00:00.000Z'; // a Wednesday
const alice: QuotaSubject = { guildId: 'g1', userId: 'alice', roleIds: [] };
const DAY_MS = 86_400_000;

/** The quota-store behaviour every backend must show. */
export function describeQuotaStoreContract(name: string, openBackend: OpenBackend): void {
  describe(`QuotaStore on ${name}`, () => {
    let clock: ManualClock;
    let storage: Storage;
    let backend: Backend;
    let cleanup: () => Promise<void>;
    let log: ReturnType<typeof memoryLogger>;

    beforeEach(async () => {
      clock = new ManualClock(START);
      log = memoryLogger();
      ({ backend, cleanup } = await openBackend());
      storage = createStorage(backend, { defaults: DEFAULTS, jobLeaseMs: LEASE_MS, clock, logger: log.logger });
    });
    afterEach(async () => cleanup());

    it('grants exactly 5 of 200 concurrent reservations against a limit of 5', async () => {
      const outcomes = await Promise.all(Array.from({ length: 200 }, (_, i) => storage.quotas.reserve(alice, `job-${i}`, 1)));
      expect(outcomes.filter((o) => o.ok)).toHaveLength(5);
      expect(await storage.quotas.status(alice)).toMatchObject({ used: 0, reserved: 5, remaining: 0 });
    });

    it('commits at most what was reserved and makes commit and refund idempotent by job id', async () => {
      await storage.quotas.reserve(alice, 'a', 2);
      await storage.quotas.commit('a', 9);
      await storage.quotas.commit('a', 2);
      await storage.quotas.refund('a');
      await storage.quotas.reserve(alice, 'b', 3);
      await storage.quotas.commit('b', 1);
      await storage.quotas.refund('unknown-job');
      expect(await storage.quotas.status(alice)).toMatchObject({ used: 3, reserved: 0, remaining: 2 });
      await expect(storage.quotas.commit('b', Number.NaN)).rejects.toThrow(RangeError);
      await expect(storage.quotas.reserve(alice, 'c', 0)).rejects.toThrow(RangeError);
    });

    it('refuses a reservation that does not fit, with the reset time', async () => {
      await storage.quotas.reserve(alice, 'a', 4);
      const outcome = await storage.quotas.reserve(alice, 'b', 2);
      expect(outcome).toEqual({
        ok: false,
        status: { limit: 5, period: 'day', used: 0, reserved: 4, remaining: 1, resetsAt: Date.parse('2025-03-13T00:00:00Z'), source: 'default' },
      });
    });

    it.each([
      ['day', '2025-03-12T23:59:59.999Z', '2025-03-13T00:00:00.000Z'],
      ['week', '2025-03-16T23:59:59.999Z', '2025-03-17T00:00:00.000Z'],
      ['month', '2025-03-31T23:59:59.999Z', '2025-04-01T00:00:00.000Z'],
    ] as const)('starts a fresh %s when the period rolls over', async (period, lastMs, next) => {
      await storage.quotas.setLimit({ kind: 'server', guildId: 'g1' }, { limit: 2, period });
      await storage.quotas.reserve(alice, 'a', 2);
      await storage.quotas.commit('a', 2);
      clock.set(lastMs);
      const refused = await storage.quotas.reserve(alice, 'b', 1);
      expect(refused).toMatchObject({ ok: false, status: { used: 2, resetsAt: Date.parse(next), source: 'server' } });
      clock.set(next);
      expect(await storage.quotas.reserve(alice, 'c', 1)).toMatchObject({ ok: true, status: { used: 0, reserved: 1 } });
    });

    it('applies member over roles (most generous) over server over defaults; 0 blocks', async () => {
      const subject: QuotaSubject = { guildId: 'g1', userId: 'carol', roleIds: ['artists', 'patrons', 'none'] };
      expect(await storage.quotas.status(subject)).toMatchObject({ limit: 5, period: 'day', source: 'default' });
      await storage.quotas.setLimit({ kind: 'server', guildId: 'g1' }, { limit: 3, period: 'week' });
      expect(await storage.quotas.status(subject)).toMatchObject({ limit: 3, period: 'week', source: 'server' });
      await storage.quotas.setLimit({ kind: 'role', guildId: 'g1', roleId: 'artists' }, { limit: 10, period: 'day' });
      await storage.quotas.setLimit({ kind: 'role', guildId: 'g1', roleId: 'patrons' }, { limit: 100, period: 'month' });
      expect(await storage.quotas.status(subject)).toMatchObject({ limit: 10, period: 'day', source: 'role' });
      const change = await storage.quotas.setLimit({ kind: 'member', guildId: 'g1', userId: 'carol' }, { limit: 0, period: 'day' });
      expect(change).toEqual({ before: undefined, after: { limit: 0, period: 'day' } });
      expect(await storage.quotas.reserve(subject, 'x', 1)).toMatchObject({ ok: false, status: { limit: 0, source: 'member' } });
      expect(await storage.quotas.status({ ...subject, guildId: 'g2' })).toMatchObject({ source: 'default' });
      const again = await storage.quotas.setLimit({ kind: 'member', guildId: 'g1', userId: 'carol' }, { limit: 7, period: 'week' });
      expect(again.before).toEqual({ limit: 0, period: 'day' });
    });

    it("applies an admin's limit change to the very next reservation of this process", async () => {
      expect(await storage.quotas.reserve(alice, 'a', 1)).toMatchObject({ ok: true, status: { limit: 5, source: 'default' } });
      await storage.quotas.setLimit({ kind: 'member', guildId: 'g1', userId: 'alice' }, { limit: 1, period: 'day' });
      expect(await storage.quotas.reserve(alice, 'b', 1)).toMatchObject({ ok: false, status: { limit: 1, reserved: 1, source: 'member' } });
      await storage.quotas.setLimit({ kind: 'member', guildId: 'g1', userId: 'alice' }, { limit: 2, period: 'day' });
      expect(await storage.quotas.reserve(alice, 'c', 1)).toMatchObject({ ok: true, status: { limit: 2, reserved: 2 } });
    });

    it('gives direct messages the configured defaults, apart from server usage', async () => {
      await storage.quotas.setLimit({ kind: 'member', guildId: 'g1', userId: 'alice' }, { limit: 0, period: 'day' });
      const dm: QuotaSubject = { guildId: null, userId: 'alice', roleIds: [] };
      expect(await storage.quotas.reserve(dm, 'dm-1', 5)).toMatchObject({ ok: true, status: { limit: 5, reserved: 5, source: 'default' } });
      await storage.quotas.commit('dm-1', 5);
      expect(await storage.quotas.status({ ...alice, userId: 'dave' })).toMatchObject({ used: 0 });
    });

    it('resets committed usage of the current period and keeps open reservations', async () => {
      await storage.quotas.reserve(alice, 'a', 3);
      await storage.quotas.commit('a', 3);
      await storage.quotas.reserve(alice, 'b', 1);
      expect(await storage.quotas.resetUsage('g1', 'alice')).toEqual({ usedBefore: 3 });
      expect(await storage.quotas.status(alice)).toMatchObject({ used: 0, reserved: 1 });
      await storage.quotas.commit('b', 1);
      expect(await storage.quotas.status(alice)).toMatchObject({ used: 1, reserved: 0 });
    });

    it('refuses on a corrupt usage record until an admin resets it', async () => {
      const key = `usage:g1:alice:${periodWindow('day', clock.now()).label}`;
      await backend.ledger.writeRaw(key, 'not json {', DAY_MS);
      await expect(storage.quotas.reserve(alice, 'a', 1)).rejects.toBeInstanceOf(StorageCorruptError);
      await expect(storage.quotas.status(alice)).rejects.toBeInstanceOf(StorageCorruptError);
      expect(log.lines.some((l) => l['msg'] === 'corrupt usage record' && l['level'] === 50)).toBe(true);
      await backend.ledger.writeRaw(key, JSON.stringify({ v: 2, used: 'lots' }), DAY_MS);
      await expect(storage.quotas.reserve(alice, 'a', 1)).rejects.toBeInstanceOf(StorageCorruptError);
      expect(await storage.quotas.resetUsage('g1', 'alice')).toEqual({ usedBefore: 0 });
      expect(await storage.quotas.reserve(alice, 'a', 1)).toMatchObject({ ok: true });
    });

    it('ignores a corrupt limit record so the next level applies, and a corrupt job record', async () => {
      await storage.quotas.setLimit({ kind: 'server', guildId: 'g1' }, { limit: 2, period: 'day' });
      await backend.kv.writeRaw('limit:g1:member:alice', '{"value":{"v":1,"limit":-3,"period":"day"}}');
      expect(await storage.quotas.status(alice)).toMatchObject({ limit: 2, source: 'server' });
      await storage.quotas.reserve(alice, 'j', 1);
      await backend.ledger.writeRaw('job:j', 'garbage', DAY_MS);
      await storage.quotas.commit('j', 1);
      expect(await storage.quotas.status(alice)).toMatchObject({ used: 0, reserved: 1 });
      const errors = new Set(log.lines.filter((l) => l['level'] === 50).map((l) => l['msg']));
      expect(errors).toEqual(new Set(['corrupt limit record ignored', 'corrupt job record ignored']));
    });
  });
}
