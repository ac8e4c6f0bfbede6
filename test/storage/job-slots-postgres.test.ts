/**
 * What makes PostgreSQL's job slots scale (issue 28): an attempt takes its locks in one statement over all keys,
 * however many slots there are (in one short transaction with the lanes' bookkeeping), and a release wakes a waiter through NOTIFY, passed on by a waiter whose member's slots are full. The
 * waiters here back off for an hour, so only a NOTIFY can let them in.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { SlotHold } from '../../src/ports/job-slots.js';
import type { ClusterJobSlots, JobSlotLimits } from '../../src/storage/job-slots.js';
import { openPostgresJobSlots } from '../../src/storage/job-slots-postgres.js';
import { eventually, memoryLogger, silentLogger } from './helpers.js';

const POSTGRES_URL = process.env['POSTGRES_URL'];
const HOUR = 3_600_000;
const opened: ClusterJobSlots[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((slots) => slots.close()));
});

async function open(limits: JobSlotLimits, applicationName = 'imagine-bot-test-slots', namespace = `imagine-bot-test-${randomUUID()}`, logger = silentLogger) {
  const slots = await openPostgresJobSlots(POSTGRES_URL ?? '', {
    namespace,
    limits,
    applicationName,
    connectTimeoutMs: 3_000,
    maxConnections: 12,
    display: 'postgres://test',
    logger,
    pauseMs: { first: HOUR, max: HOUR },
  });
  opened.push(slots);
  return slots;
}

/** Starts acquiring; `waiting` resolves after its first attempt found no free slot. */
function acquiring(slots: ClusterJobSlots, memberId: string) {
  let waited!: () => void;
  const waiting = new Promise<void>((resolve) => (waited = resolve));
  const controller = new AbortController();
  const hold = slots.acquire(memberId, { signal: controller.signal, onWait: () => waited() });
  return { hold, waiting, controller };
}

const free = (slots: ClusterJobSlots, memberId: string): Promise<SlotHold> => slots.acquire(memberId, { signal: new AbortController().signal });

/** Counts the statements pg clients with `applicationName` send from now on (the driver's own query method, wrapped). */
function countStatements(applicationName: string): { count: () => number; stop: () => void } {
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  let n = 0;
  prototype.query = function (this: { connectionParameters: { application_name?: string } }, ...args: unknown[]) {
    if (this.connectionParameters.application_name === applicationName) n += 1;
    return original.apply(this, args);
  };
  return { count: () => n, stop: () => (prototype.query = original) };
}

describe.skipIf(!POSTGRES_URL)(
  POSTGRES_URL ? 'PostgreSQL job slots at scale' : 'PostgreSQL job slots at scale: skipped because POSTGRES_URL is not set',
  () => {
    it('tries all the global slots and the member slots in the same few statements per attempt, however many there are', async () => {
      const statementsOfOneAttempt = async (global: number) => {
        const applicationName = `imagine-bot-test-${randomUUID().slice(0, 8)}`;
        const slots = await open({ global, perMember: 4 }, applicationName);
        for (let i = 0; i < global; i++) await free(slots, `m${i}`);
        const counter = countStatements(applicationName);
        try {
          const waiter = acquiring(slots, 'late');
          await waiter.waiting;
          const count = counter.count();
          waiter.controller.abort(new Error('done'));
          await expect(waiter.hold).rejects.toThrow('done');
          return count;
        } finally {
          counter.stop();
        }
      };
      // A normal job while no priority job waits: the locks and the lanes' bookkeeping in one statement (TRY_NORMAL).
      const few = await statementsOfOneAttempt(2);
      expect(few).toBe(1);
      expect(await statementsOfOneAttempt(8)).toBe(few);
    });

    it("wakes a waiter through NOTIFY when a slot is released, in another opening's process too", async () => {
      const namespace = `imagine-bot-test-${randomUUID()}`;
      const first = await open({ global: 1, perMember: 1 }, undefined, namespace);
      const second = await open({ global: 1, perMember: 1 }, undefined, namespace);
      const held = await free(first, 'a');
      const waiter = acquiring(second, 'b');
      await waiter.waiting;
      await held.release();
      await expect(waiter.hold).resolves.toBeDefined();
    });

    it("passes a wake on from a waiter whose member's slots are full to the next waiter", async () => {
      const slots = await open({ global: 2, perMember: 1 });
      await free(slots, 'a');
      const b = await free(slots, 'b');
      const sameMember = acquiring(slots, 'a');
      await sameMember.waiting;
      const other = acquiring(slots, 'c');
      await other.waiting;
      await b.release();
      await expect(other.hold).resolves.toBeDefined();
      sameMember.controller.abort(new Error('done'));
      await expect(sameMember.hold).rejects.toThrow('done');
    });

    it('listens again after its listening connection drops, and a release then wakes a waiter', async () => {
      const applicationName = `imagine-bot-test-${randomUUID().slice(0, 8)}`;
      const { logger, lines } = memoryLogger();
      const slots = await open({ global: 1, perMember: 1 }, applicationName, undefined, logger);
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      try {
        const listen = `${applicationName}-listen`;
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [listen]);
        await eventually(() => lines.some((line) => line['msg'] === 'job slot listener back'), 'the listener to be back', 500, 20);
        expect(lines.some((line) => String(line['msg']).startsWith('job slot listener lost'))).toBe(true);
        const { rows } = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [listen]);
        expect(rows[0]?.n).toBe(1);
        const held = await free(slots, 'a');
        const waiter = acquiring(slots, 'b');
        await waiter.waiting;
        await held.release();
        await expect(waiter.hold).resolves.toBeDefined();
      } finally {
        await admin.end();
      }
    });
  },
);
