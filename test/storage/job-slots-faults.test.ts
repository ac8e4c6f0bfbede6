import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { StorageUnavailableError } from '../../src/storage/errors.js';
import { type ClusterJobSlots, pollForHold } from '../../src/storage/job-slots.js';
import { openJobSlots } from '../../src/storage/open-job-slots.js';
import { connectRedis } from '../../src/storage/redis-client.js';
import { parseStorageUrl } from '../../src/storage/storage-url.js';
import { eventually, memoryLogger } from './helpers.js';

const REDIS_URL = process.env['REDIS_URL'];
const POSTGRES_URL = process.env['POSTGRES_URL'];
const never = () => new AbortController().signal;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.allSettled(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function open(url: string, applicationName = 'imagine-bot-test-slots') {
  const namespace = `imagine-bot-test-${randomUUID()}`;
  const { logger, lines } = memoryLogger();
  const options = { namespace, limits: { global: 1, perMember: 1 }, holdMs: 1_500, connectTimeoutMs: 3_000, applicationName, logger };
  const opened = await openJobSlots(parseStorageUrl(url), options);
  if (opened === undefined) throw new Error(`${url} offers no job slots`);
  const slots: ClusterJobSlots = opened;
  cleanups.push(() => slots.close());
  const logged = (msg: string) => lines.some((line) => typeof line['msg'] === 'string' && line['msg'].startsWith(msg));
  return { slots, namespace, logged };
}

describe('waiting for a job slot', () => {
  it('releases a hold won just as the wait was aborted, and rejects with the reason', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    let released = 0;
    const tryOnce = () => {
      controller.abort(reason);
      return Promise.resolve({ release: () => Promise.resolve(void (released += 1)) });
    };
    await expect(pollForHold(tryOnce, { signal: controller.signal })).rejects.toBe(reason);
    expect(released).toBe(1);
  });
});

describe.skipIf(!REDIS_URL)(REDIS_URL ? 'Redis job slots at fault' : 'Redis job slots at fault: skipped because REDIS_URL is not set', () => {
  it('fails closed once closed, and a release then only logs', async () => {
    const { slots, logged } = await open(REDIS_URL ?? '');
    const hold = await slots.acquire('a', { signal: never() });
    await slots.close();
    await expect(slots.acquire('b', { signal: never() })).rejects.toBeInstanceOf(StorageUnavailableError);
    await hold.release();
    expect(logged('job slot release failed')).toBe(true);
  });

  it('logs a hold that lapsed (its holder vanished from the store) and stops refreshing it', async () => {
    const { slots, namespace, logged } = await open(REDIS_URL ?? '');
    const redis = await connectRedis(REDIS_URL ?? '', { connectTimeoutMs: 3_000, name: 'imagine-bot-test' });
    cleanups.push(() => {
      redis.destroy();
      return Promise.resolve();
    });
    const hold = await slots.acquire('a', { signal: never() });
    await redis.del(`${namespace}:slots:global`);
    await eventually(() => logged('job slot lapsed'), 'the lapse to be logged', 500, 20);
    await hold.release();
  });
});

describe.skipIf(!POSTGRES_URL)(
  POSTGRES_URL ? 'PostgreSQL job slots at fault' : 'PostgreSQL job slots at fault: skipped because POSTGRES_URL is not set',
  () => {
    it('frees the slots of a held connection that drops, and its release then closes it', async () => {
      const applicationName = `imagine-bot-test-${randomUUID().slice(0, 8)}`;
      const { slots, logged } = await open(POSTGRES_URL ?? '', applicationName);
      const hold = await slots.acquire('a', { signal: never() });
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      cleanups.push(() => admin.end());
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
      await eventually(() => logged('job slot connection lost'), 'the loss to be logged', 500, 20);
      await hold.release();
      expect(logged('job slot unlock failed')).toBe(true);
      await slots.acquire('b', { signal: never() });
    });

    it('ends the connections of holds still open at close, and fails closed afterwards', async () => {
      const { slots } = await open(POSTGRES_URL ?? '');
      const hold = await slots.acquire('a', { signal: never() });
      await slots.close();
      await hold.release();
      await expect(slots.acquire('b', { signal: never() })).rejects.toBeInstanceOf(StorageUnavailableError);
    });
  },
);
