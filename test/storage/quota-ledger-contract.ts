import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QuotaLedger } from '../../src/ports/quota-ledger.js';
import type { QuotaSubject } from '../../src/core/quota.js';
import { LIMIT_CACHE_MS } from '../../src/storage/limit-store.js';
import { createStorage } from '../../src/storage/open-storage.js';
import { runReservers } from './child-reservers.js';
import { ManualClock, memoryLogger, seededRandom, yieldTurns } from './helpers.js';
import { LEASE_MS, type OpenBackend, type OpenedBackend } from './quota-store-contract.js';

const START = '2025-03-12T12:00:00.000Z';
const alice: QuotaSubject = { guildId: 'g1', userId: 'alice', roleIds: [] };

/**
 * The ledger's promises every backend must keep, with two store instances on the same data as two processes
 * would have them (each with its own in-process lock), and real child processes where the backend is shared.
 */
export function describeQuotaLedgerContract(name: string, openBackend: OpenBackend, options: { sharedByProcesses: boolean }): void {
  const processes = 'grants exactly 5 of 200 concurrent reservations made by 4 processes against a limit of 5';
  describe(`the quota ledger on ${name}`, () => {
    let opened: OpenedBackend;
    let clock: ManualClock;
    let one: QuotaLedger;
    let other: QuotaLedger;
    let log: ReturnType<typeof memoryLogger>;

    beforeEach(async () => {
      clock = new ManualClock(START);
      log = memoryLogger();
      opened = await openBackend();
      const options = { defaults: { limit: 5, period: 'day' }, jobLeaseMs: LEASE_MS, clock, logger: log.logger } as const;
      one = createStorage(opened.backend, options).quotas;
      other = createStorage(await opened.twin(), options).quotas;
    });
    afterEach(async () => opened.cleanup());

    it('never lets a lease lapse while it is renewed, for an hour', async () => {
      expect(await one.reserve(alice, 'long', 4)).toMatchObject({ ok: true });
      for (let elapsed = 0; elapsed < 3_600_000; elapsed += LEASE_MS / 3) {
        clock.advance(LEASE_MS / 3);
        // Checked just before each renewal: the previous one must have carried the lease this far.
        expect(await other.reserve(alice, `again-${elapsed}`, 2)).toMatchObject({ ok: false, status: { reserved: 4, remaining: 1 } });
        await one.renew('long');
      }
      expect(log.lines.filter((l) => l['msg'] === 'lapsed reservation held again by its live job')).toEqual([]);
      await other.commit('long', 4);
      expect(await one.status(alice)).toMatchObject({ used: 4, reserved: 0, remaining: 1 });
    });

    it('applies a limit changed through another process once its own read of it is LIMIT_CACHE_MS old', async () => {
      expect(await one.reserve(alice, 'a', 1)).toMatchObject({ ok: true, status: { limit: 5 } });
      await other.setLimit({ kind: 'server', guildId: 'g1' }, { limit: 1, period: 'day' });
      clock.advance(LIMIT_CACHE_MS - 1);
      expect(await one.reserve(alice, 'b', 1)).toMatchObject({ ok: true, status: { limit: 5, reserved: 2 } });
      expect(await other.reserve(alice, 'c', 1)).toMatchObject({ ok: false, status: { limit: 1, source: 'server' } });
      clock.advance(1);
      expect(await one.reserve(alice, 'd', 1)).toMatchObject({ ok: false, status: { limit: 1, reserved: 2, source: 'server' } });
    });

    it('frees the quota of a lease that is not renewed after JOB_LEASE_MS', async () => {
      expect((await one.reserve(alice, 'crashed', 5)).ok).toBe(true);
      clock.advance(LEASE_MS - 1);
      expect((await other.reserve(alice, 'early', 1)).ok).toBe(false);
      clock.advance(1);
      expect(await other.status(alice)).toMatchObject({ used: 0, reserved: 0, remaining: 5 });
      expect((await other.reserve(alice, 'later', 5)).ok).toBe(true);
    });

    it('charges a commit after the lease lapsed exactly what was delivered, once', async () => {
      await one.reserve(alice, 'slow', 3);
      clock.advance(LEASE_MS);
      expect(await other.reserve(alice, 'meanwhile', 2)).toMatchObject({ ok: true, status: { used: 0, reserved: 2 } });
      await one.commit('slow', 3);
      await other.commit('slow', 3);
      await one.refund('slow');
      expect(await one.status(alice)).toMatchObject({ used: 3, reserved: 2, remaining: 0 });
    });

    it('charges a commit after another process refunded the job, once', async () => {
      await one.reserve(alice, 'job', 4);
      await other.refund('job');
      expect(await one.status(alice)).toMatchObject({ used: 0, reserved: 0 });
      await one.commit('job', 3);
      await other.commit('job', 3);
      expect(await other.status(alice)).toMatchObject({ used: 3, reserved: 0, remaining: 2 });
    });

    it('holds the images of a lapsed reservation again when its live job renews it', async () => {
      await one.reserve(alice, 'stalled', 3);
      clock.advance(LEASE_MS);
      expect(await other.status(alice)).toMatchObject({ reserved: 0 });
      await one.renew('stalled');
      expect(await other.reserve(alice, 'greedy', 3)).toMatchObject({ ok: false, status: { reserved: 3, remaining: 2 } });
      expect(log.lines.some((l) => l['msg'] === 'lapsed reservation held again by its live job')).toBe(true);
    });

    it('changes nothing when a committed job is renewed, refunded or committed again', async () => {
      await one.reserve(alice, 'done', 2);
      await one.commit('done', 2);
      await other.renew('done');
      await other.refund('done');
      await other.commit('done', 2);
      await one.renew('unknown-job');
      expect(await one.status(alice)).toMatchObject({ used: 2, reserved: 0, remaining: 3 });
    });

    it('keeps used ≤ limit and every sum exact under random interleavings across two stores, lapses included', async () => {
      const random = seededRandom(20250312);
      const bob: QuotaSubject = { guildId: 'g1', userId: 'bob', roleIds: [] };
      const limit = 40;
      await one.setLimit({ kind: 'member', guildId: 'g1', userId: 'bob' }, { limit, period: 'day' });
      const pick = () => (random() < 0.5 ? one : other);
      let used = 0;
      /** Counts of jobs that crashed with a reservation, by the round they reserved in. */
      const crashed: number[] = [];
      const runJob = async (round: number, i: number): Promise<void> => {
        const id = `job-${round}-${i}`;
        const count = 1 + Math.floor(random() * 4);
        const delivered = Math.floor(random() * 6);
        const plan = random();
        const duplicate = random() < 0.3;
        await yieldTurns(Math.floor(random() * 5));
        const outcome = await pick().reserve(bob, id, count);
        if (!outcome.ok) return;
        expect(outcome.status.used + outcome.status.reserved).toBeLessThanOrEqual(limit);
        await yieldTurns(Math.floor(random() * 5));
        if (plan < 0.2) {
          crashed[round] = (crashed[round] ?? 0) + count;
          return;
        }
        if (plan < 0.3) await pick().renew(id);
        if (plan < 0.65) {
          await pick().commit(id, delivered);
          used += Math.min(delivered, count);
          if (duplicate) await (random() < 0.5 ? pick().commit(id, count) : pick().refund(id));
        } else {
          await pick().refund(id);
          if (duplicate) await pick().refund(id);
        }
      };
      for (let round = 0; round < 8; round += 1) {
        await Promise.all(Array.from({ length: 25 }, (_, i) => runJob(round, i)));
        // A crashed job's lease (LEASE_MS) lapses two rounds (of LEASE_MS / 2) after it reserved.
        const stillHeld = (crashed[round] ?? 0) + (crashed[round - 1] ?? 0);
        expect(await pick().status(bob)).toMatchObject({ used, reserved: stillHeld });
        expect(used).toBeLessThanOrEqual(limit);
        clock.advance(LEASE_MS / 2);
      }
      expect(crashed.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      clock.advance(LEASE_MS);
      expect(await one.status(bob)).toMatchObject({ used, reserved: 0 });
    });

    it.skipIf(!options.sharedByProcesses)(
      options.sharedByProcesses ? processes : `${processes}: skipped because ${name} is not shared by processes`,
      async () => {
        const shared = opened.shared;
        if (!shared) throw new Error(`${name} names no shared location`);
        const task = { ...shared, now: Date.parse(START), guildId: 'g1', userId: 'alice', limit: 5, reservations: 50 };
        const results = await runReservers([0, 1, 2, 3].map((p) => ({ ...task, jobPrefix: `process-${p}` })));
        expect(results.flatMap((r) => r.errors)).toEqual([]);
        expect(results.reduce((sum, r) => sum + r.accepted, 0)).toBe(5);
        expect(await one.status(alice)).toMatchObject({ used: 0, reserved: 5, remaining: 0 });
      },
      60_000,
    );
  });
}
