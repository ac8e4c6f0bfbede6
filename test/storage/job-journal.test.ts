/**
 * The job journal on every backend: journals of several processes (each with its own ledger connection where the
 * backend has connections) over one store, on a clock the test moves.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LedgerJobJournal } from '../../src/storage/job-journal.js';
import type { Ledger } from '../../src/storage/ledger.js';
import { openLedger } from '../../src/storage/open-ledger.js';
import { parseStorageUrl } from '../../src/storage/storage-url.js';
import { ManualClock, memoryLogger, silentLogger } from './helpers.js';

const REDIS_URL = process.env['REDIS_URL'];
const POSTGRES_URL = process.env['POSTGRES_URL'];
const LEASE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Opens ledgers on one store: one per process (the memory backend is one process's own, so it hands out one). */
interface Store {
  ledger(): Promise<Ledger>;
  cleanup(): Promise<void>;
}

type OpenStore = () => Promise<Store>;

function networkStore(url: string): OpenStore {
  return () => {
    const namespace = `imagine-bot-test-${randomUUID()}`;
    const opened: Ledger[] = [];
    return Promise.resolve({
      ledger: async () => {
        const ledger = await openLedger(parseStorageUrl(url), {
          namespace,
          connectTimeoutMs: 3_000,
          applicationName: 'imagine-bot-test-journal',
          logger: silentLogger,
        });
        opened.push(ledger);
        return ledger;
      },
      cleanup: async () => {
        await opened[0]?.clear();
        await Promise.all(opened.map((ledger) => ledger.close()));
      },
    });
  };
}

const memory: OpenStore = async () => {
  const ledger = await openLedger(parseStorageUrl('memory://'), { namespace: 'n', connectTimeoutMs: 1_000, applicationName: 'test', logger: silentLogger });
  return { ledger: () => Promise.resolve(ledger), cleanup: () => ledger.close() };
};

const sqlite: OpenStore = async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'imagine-bot-journal-'));
  const inner = networkStore(`sqlite://${path.join(dir, 'bot.sqlite')}`);
  const store = await inner();
  return {
    ledger: () => store.ledger(),
    cleanup: async () => {
      await store.cleanup();
      await rm(dir, { recursive: true, force: true });
    },
  };
};

const backends: [string, OpenStore | undefined][] = [
  ['memory', memory],
  ['SQLite', sqlite],
  ['Redis', REDIS_URL === undefined ? undefined : networkStore(REDIS_URL)],
  ['PostgreSQL', POSTGRES_URL === undefined ? undefined : networkStore(POSTGRES_URL)],
];

for (const [name, open] of backends) {
  const title = open
    ? `the job journal on ${name}`
    : `the job journal on ${name}: skipped because ${name === 'Redis' ? 'REDIS_URL' : 'POSTGRES_URL'} is not set`;
  describe.skipIf(open === undefined)(title, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0)) await cleanup();
    });

    /** Journals of `count` processes over one store, on one clock. */
    async function processes(count: number) {
      const store = await open!();
      cleanups.push(() => store.cleanup());
      const clock = new ManualClock('2026-11-23T12:00:00.000Z');
      const log = memoryLogger();
      const journals: LedgerJobJournal[] = [];
      for (let i = 0; i < count; i += 1) {
        journals.push(new LedgerJobJournal({ ledger: await store.ledger(), leaseMs: LEASE_MS, clock, logger: log.logger, processId: `p${i}` }));
      }
      return { journals, clock, log, ledger: await store.ledger() };
    }

    it('hands the open jobs of a lapsed process, with their entries, to one claimer, once, and keeps no entry it took', async () => {
      const { journals, clock, ledger } = await processes(3);
      const [dead, claimer, other] = journals as [LedgerJobJournal, LedgerJobJournal, LedgerJobJournal];
      await dead.open('j1', { prompt: 'a fox', token: 'secret' });
      await dead.open('j2', { prompt: 'a hen' });
      await dead.close('j2');
      await claimer.heartbeat();
      expect(await claimer.claimAbandoned()).toEqual([]);

      clock.advance(LEASE_MS + 1);
      const [first, second] = await Promise.all([claimer.claimAbandoned(), other.claimAbandoned()]);
      expect([...first, ...second]).toEqual([{ jobId: 'j1', entry: { prompt: 'a fox', token: 'secret' } }]);
      // The entry (an interaction token, the request) is deleted once taken.
      expect(await ledger.get('journal:job:j1')).toBeUndefined();
      expect(await claimer.claimAbandoned()).toEqual([]);
      expect(await other.claimAbandoned()).toEqual([]);
    });

    it('takes a process for dead two thirds of a lease after its last renewal, not before', async () => {
      const { journals, clock } = await processes(2);
      const [quiet, claimer] = journals as [LedgerJobJournal, LedgerJobJournal];
      await quiet.open('j1', {});
      await quiet.heartbeat();
      clock.advance((LEASE_MS * 2) / 3 - 1);
      expect(await claimer.claimAbandoned()).toEqual([]);
      clock.advance(1);
      expect(await claimer.claimAbandoned()).toEqual([{ jobId: 'j1', entry: {} }]);
    });

    it('never hands over the jobs of a process that renews its journal, for an hour', async () => {
      const { journals, clock } = await processes(2);
      const [live, claimer] = journals as [LedgerJobJournal, LedgerJobJournal];
      await live.open('j1', {});
      for (let elapsed = 0; elapsed < 3_600_000; elapsed += LEASE_MS / 3) {
        clock.advance(LEASE_MS / 3);
        await live.heartbeat();
        expect(await claimer.claimAbandoned()).toEqual([]);
      }
    });

    it('tells a process whose jobs were claimed while it looked dead, and claims only its later jobs next time', async () => {
      const { journals, clock, log } = await processes(2);
      const [slow, claimer] = journals as [LedgerJobJournal, LedgerJobJournal];
      await slow.open('j1', {});
      clock.advance(LEASE_MS + 1);
      expect(await claimer.claimAbandoned()).toEqual([{ jobId: 'j1', entry: {} }]);

      expect(await slow.heartbeat()).toEqual(['j1']);
      expect(log.lines.some((line) => line['msg'] === 'another process took this process for dead and claimed its jobs')).toBe(true);
      expect(await slow.heartbeat()).toEqual([]);
      await slow.open('j2', {});
      clock.advance(LEASE_MS + 1);
      expect(await claimer.claimAbandoned()).toEqual([{ jobId: 'j2', entry: {} }]);
    });

    it('leaves nothing to claim once a process retires, and lists it again when it writes again', async () => {
      const { journals, clock, ledger } = await processes(2);
      const [leaving, claimer] = journals as [LedgerJobJournal, LedgerJobJournal];
      await leaving.open('j1', {});
      await leaving.close('j1');
      await leaving.retire();
      expect(await ledger.get('journal:processes')).toMatchObject({ processes: [] });
      clock.advance(LEASE_MS + 1);
      expect(await claimer.claimAbandoned()).toEqual([]);

      await leaving.open('j2', {});
      clock.advance(LEASE_MS + 1);
      expect(await claimer.claimAbandoned()).toEqual([{ jobId: 'j2', entry: {} }]);
    });

    it('drops a closed job’s entry, and forgets a lapsed process with nothing open after a day', async () => {
      const { journals, clock, ledger } = await processes(2);
      const [gone, claimer] = journals as [LedgerJobJournal, LedgerJobJournal];
      await gone.open('j1', { token: 'secret' });
      await gone.close('j1');
      // Overwritten with null for at most a millisecond, then gone: the token is not kept.
      expect((await ledger.get('journal:job:j1')) ?? null).toBeNull();
      await claimer.heartbeat();
      expect(await ledger.get('journal:processes')).toMatchObject({ processes: ['p0', 'p1'] });

      clock.advance(LEASE_MS + 1);
      await claimer.claimAbandoned();
      expect(await ledger.get('journal:processes')).toMatchObject({ processes: ['p0', 'p1'] });
      clock.advance(DAY_MS);
      await claimer.heartbeat();
      expect(await claimer.claimAbandoned()).toEqual([]);
      expect(await ledger.get('journal:processes')).toMatchObject({ processes: ['p1'] });
    });

    it('forgets a process whose record is unreadable, and hands over a job whose entry is gone with an undefined entry', async () => {
      const { journals, clock, ledger } = await processes(3);
      const [broken, lost, claimer] = journals as [LedgerJobJournal, LedgerJobJournal, LedgerJobJournal];
      await broken.open('j1', {});
      await lost.open('j2', { prompt: 'a cat' });
      await ledger.writeRaw('journal:process:p0', 'not json', LEASE_MS);
      await ledger.writeRaw('journal:job:j2', '{"v":2}', LEASE_MS);
      await claimer.heartbeat();
      clock.advance(LEASE_MS + 1);
      expect(await claimer.claimAbandoned()).toEqual([{ jobId: 'j2', entry: undefined }]);
      expect(await ledger.get('journal:processes')).toMatchObject({ processes: ['p1', 'p2'] });
    });

    it('lists its processes again after the list was lost, at the next heartbeat', async () => {
      const { journals, clock, ledger } = await processes(2);
      const [live, claimer] = journals as [LedgerJobJournal, LedgerJobJournal];
      await live.open('j1', {});
      await ledger.writeRaw('journal:processes', 'lost', LEASE_MS);
      await live.heartbeat();
      clock.advance(LEASE_MS + 1);
      expect(await claimer.claimAbandoned()).toEqual([{ jobId: 'j1', entry: {} }]);
    });
  });
}

describe('the job journal’s process id', () => {
  it('is a fresh random one unless given', async () => {
    const ledger = await openLedger(parseStorageUrl('memory://'), { namespace: 'n', connectTimeoutMs: 1_000, applicationName: 't', logger: silentLogger });
    const options = { ledger, leaseMs: LEASE_MS, clock: new ManualClock(0), logger: silentLogger };
    const [a, b] = [new LedgerJobJournal(options), new LedgerJobJournal(options)];
    expect(a.processId).not.toBe(b.processId);
    expect(new LedgerJobJournal({ ...options, processId: 'fixed' }).processId).toBe('fixed');
    await ledger.close();
  });
});
