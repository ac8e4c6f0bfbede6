/**
 * keyv's own PostgreSQL connections (limits, button records) dropping under it: the process stays up (the pool's
 * 'error' listener gets the idle ones), the request using a dropped connection fails closed (StorageUnavailableError,
 * the "storage unavailable" message), and the next request gets a new connection.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import type { QuotaSubject, QuotaTarget } from '../../src/core/quota.js';
import { StorageUnavailableError } from '../../src/storage/errors.js';
import { openStorage } from '../../src/storage/open-storage.js';
import { limitKey } from '../../src/storage/quota-records.js';
import { PostgresSessions } from '../support/postgres-sessions.js';
import { eventually, memoryLogger } from './helpers.js';

const POSTGRES_URL = process.env['POSTGRES_URL'];
const alice: QuotaSubject = { guildId: 'g1', userId: 'alice', roleIds: [] };
const server: QuotaTarget = { kind: 'server', guildId: 'g1' };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A storage under a fresh namespace and connection name, with a server limit of 3 set, and sessions to see it by. */
async function open(url: string) {
  const name = `imagine-bot-test-${randomUUID().slice(0, 8)}`;
  const namespace = `imagine-bot-test-${randomUUID()}`;
  const log = memoryLogger();
  const storage = await openStorage({ url, namespace, applicationName: name, defaults: { limit: 5, period: 'day' }, jobLeaseMs: 60_000, logger: log.logger });
  const sessions = await PostgresSessions.connect(url);
  cleanups.push(
    () => storage.close(),
    () => sessions.close(),
  );
  await storage.quotas.setLimit(server, { limit: 3, period: 'day' });
  const lost = () => eventually(() => log.lines.some((l) => l['msg'] === 'storage connection lost'), 'the pool to report a lost connection');
  return { storage, sessions, namespace, name, lost };
}

describe.skipIf(!POSTGRES_URL)(POSTGRES_URL ? 'PostgreSQL keyv connections' : 'PostgreSQL keyv connections: skipped because POSTGRES_URL is not set', () => {
  const url = POSTGRES_URL ?? '';

  it('stays up when its idle connections are terminated, and the next request succeeds', async () => {
    const { storage, sessions, name, lost } = await open(url);
    expect(await sessions.terminate([name])).toBeGreaterThanOrEqual(1);
    await lost();
    expect(await storage.quotas.setLimit(server, { limit: 4, period: 'day' })).toMatchObject({ before: { limit: 3 } });
  });

  it('fails the request whose connection is terminated mid-statement, fails closed, and the next one succeeds', async () => {
    const { storage, sessions, namespace, name, lost } = await open(url);
    const records = storage.records('probe', z.string());
    // Hold the server limit's row, so the admin's next change of it waits inside its statement.
    await sessions.lockRow('public.keyv', `${namespace}:${limitKey(server)}`);
    const during = storage.quotas.setLimit(server, { limit: 9, period: 'day' }).catch((err: unknown) => err);
    await sessions.waitForLockWaiters(name);
    // A read beside it needs a second connection, which is idle when both are killed.
    expect(await records.get('missing')).toBeUndefined();
    const killed = await sessions.terminate([name]);
    await sessions.release();

    expect(killed).toBeGreaterThanOrEqual(2);
    expect(await during).toBeInstanceOf(StorageUnavailableError);
    await lost();
    expect(await storage.quotas.setLimit(server, { limit: 4, period: 'day' })).toEqual({
      before: { limit: 3, period: 'day' },
      after: { limit: 4, period: 'day' },
    });
    expect(await storage.quotas.status(alice)).toMatchObject({ limit: 4, source: 'server' });
  });
});
