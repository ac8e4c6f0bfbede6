/**
 * The ledger's own connections dropping under it: the process stays up, the request using the connection fails
 * closed (StorageUnavailableError, the "storage unavailable" message), and later requests get new connections.
 */
import { randomUUID } from 'node:crypto';
import { createClient } from '@keyv/redis';
import { afterEach, describe, expect, it } from 'vitest';
import type { QuotaSubject } from '../../src/core/quota.js';
import { StorageUnavailableError } from '../../src/storage/errors.js';
import { openLedger } from '../../src/storage/open-ledger.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { periodWindow } from '../../src/core/periods.js';
import { parseStorageUrl } from '../../src/storage/storage-url.js';
import { PostgresSessions } from '../support/postgres-sessions.js';
import { eventually, ManualClock, memoryLogger } from './helpers.js';

const REDIS_URL = process.env['REDIS_URL'];
const POSTGRES_URL = process.env['POSTGRES_URL'];
const START = '2025-03-12T12:00:00.000Z';
const member = (userId: string): QuotaSubject => ({ guildId: 'g1', userId, roleIds: [] });

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A storage at `url` under a fresh namespace and connection name, cleared and closed after the test. */
async function open(url: string) {
  const name = `imagine-bot-test-${randomUUID().slice(0, 8)}`;
  const namespace = `imagine-bot-test-${randomUUID()}`;
  const log = memoryLogger();
  const clock = new ManualClock(START);
  const storage: Storage = await openStorage({
    url,
    namespace,
    applicationName: name,
    defaults: { limit: 5, period: 'day' },
    jobLeaseMs: 60_000,
    clock,
    logger: log.logger,
  });
  cleanups.push(() => storage.close());
  return { storage, namespace, ledgerName: `${name}-ledger`, log, usageKey: `usage:g1:alice:${periodWindow('day', clock.now()).label}` };
}

describe.skipIf(!POSTGRES_URL)(
  POSTGRES_URL ? 'PostgreSQL ledger connections' : 'PostgreSQL ledger connections: skipped because POSTGRES_URL is not set',
  () => {
    it('stays up when they are terminated mid-run: the reserve in that window fails closed, the next one succeeds', async () => {
      const url = POSTGRES_URL ?? '';
      const { storage, namespace, ledgerName, log, usageKey } = await open(url);
      await storage.quotas.reserve(member('alice'), 'warm', 1);
      const sessions = await PostgresSessions.connect(url);
      cleanups.push(() => sessions.close());

      // Hold alice's row, so her next reserve waits inside its statement on a ledger connection.
      await sessions.lockRow('quota_ledger', `${namespace}:${usageKey}`);
      const during = storage.quotas.reserve(member('alice'), 'during', 1).catch((err: unknown) => err);
      await sessions.waitForLockWaiters(ledgerName);
      // Bob's reserve cannot use the waiting connection, so the pool opens another, which is idle when it is killed.
      await storage.quotas.reserve(member('bob'), 'beside', 1);
      const killed = await sessions.terminate([ledgerName]);
      await sessions.release();

      expect(killed).toBeGreaterThanOrEqual(2);
      const failure = await during;
      expect(failure).toBeInstanceOf(StorageUnavailableError);
      // The idle connections died too: their errors reached the pool's listener (a log line), not the process.
      await eventually(() => log.lines.some((l) => l['msg'] === 'ledger connection lost'), 'the pool to report the lost connections');
      expect(await storage.quotas.reserve(member('alice'), 'after', 1)).toMatchObject({ ok: true, status: { reserved: 2 } });
      expect(await storage.quotas.status(member('bob'))).toMatchObject({ reserved: 1 });
    });
  },
);

describe.skipIf(!POSTGRES_URL)(POSTGRES_URL ? 'PostgreSQL ledger at open' : 'PostgreSQL ledger at open: skipped because POSTGRES_URL is not set', () => {
  it('fails to open, and releases its pool, when the database refuses it', async () => {
    const url = new URL(POSTGRES_URL ?? '');
    url.pathname = '/imagine_bot_no_such_database';
    const { logger } = memoryLogger();
    const opening = openLedger(parseStorageUrl(url.href), { namespace: 'n', connectTimeoutMs: 3_000, applicationName: 'imagine-bot-test-open', logger });
    await expect(opening).rejects.toMatchObject({ code: '3D000' });
  });
});

describe.skipIf(!REDIS_URL)(REDIS_URL ? 'Redis ledger connection' : 'Redis ledger connection: skipped because REDIS_URL is not set', () => {
  it('stays up when it is killed: requests fail closed until it is back, then succeed', async () => {
    const url = REDIS_URL ?? '';
    const { storage, ledgerName } = await open(url);
    await storage.quotas.reserve(member('alice'), 'before', 1);
    const admin = createClient({ url });
    await admin.connect();
    cleanups.push(() => admin.close());

    const clients = await admin.clientList();
    const ours = clients.filter((c) => c.name === ledgerName);
    expect(ours).toHaveLength(1);
    for (const client of ours) await admin.clientKill({ filter: 'ID', id: client.id });

    let attempts = 0;
    await eventually(async () => {
      attempts += 1;
      const outcome = await storage.quotas.reserve(member('alice'), `after-${attempts}`, 1).catch((err: unknown) => err);
      if (outcome instanceof Error) {
        expect(outcome).toBeInstanceOf(StorageUnavailableError);
        return false;
      }
      return true;
    }, 'the ledger to reconnect');
    expect(await storage.quotas.status(member('alice'))).toMatchObject({ reserved: 2 });
  });
});
