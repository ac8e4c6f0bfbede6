import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ClusterJobSlots, JobSlotLimits } from '../../src/storage/job-slots.js';
import { openJobSlots } from '../../src/storage/open-job-slots.js';
import { connectRedis } from '../../src/storage/redis-client.js';
import { parseStorageUrl } from '../../src/storage/storage-url.js';
import { eventually, silentLogger } from './helpers.js';
import { describeJobSlotsContract, type SlotsOpener } from './job-slots-contract.js';

const REDIS_URL = process.env['REDIS_URL'];
const POSTGRES_URL = process.env['POSTGRES_URL'];

/** Short enough that a killed holder's Redis slot lapses quickly, long enough to be refreshed under load. */
const HOLD_MS = 1_500;

/** Slots at `url` under a namespace of their own; every opening is closed by cleanup. */
function opener(url: string): SlotsOpener & { namespace: string } {
  const namespace = `imagine-bot-test-${randomUUID()}`;
  const opened: ClusterJobSlots[] = [];
  return {
    namespace,
    async open(limits: JobSlotLimits) {
      const slots = await openJobSlots(parseStorageUrl(url), {
        namespace,
        limits,
        holdMs: HOLD_MS,
        connectTimeoutMs: 3_000,
        applicationName: 'imagine-bot-test-slots',
        // Several holders and waiters in one test process; the bot's queue never has more than limits.global.
        maxConnections: 10,
        logger: silentLogger,
      });
      if (slots === undefined) throw new Error(`${url} offers no job slots`);
      opened.push(slots);
      return slots;
    },
    holderTask: (limits, memberId) => ({ url, namespace, limits, holdMs: HOLD_MS, memberId }),
    cleanup: async () => {
      await Promise.all(opened.map((slots) => slots.close()));
    },
  };
}

describe('job slots of SQLite and memory', () => {
  it.each(['memory://', 'sqlite://unused.sqlite'])('are not offered by %s: its limits are per process', async (url) => {
    const options = {
      namespace: 'x',
      limits: { global: 1, perMember: 1 },
      holdMs: HOLD_MS,
      connectTimeoutMs: 1_000,
      applicationName: 'x',
      logger: silentLogger,
    };
    expect(await openJobSlots(parseStorageUrl(url), options)).toBeUndefined();
  });
});

describe.skipIf(!REDIS_URL)(REDIS_URL ? 'Redis' : 'Redis: skipped because REDIS_URL is not set', () => {
  describeJobSlotsContract('Redis', () => opener(REDIS_URL ?? ''));

  it('keeps a hold past its first expiry while its process refreshes it', async () => {
    const slots = opener(REDIS_URL ?? '');
    const redis = await connectRedis(REDIS_URL ?? '', { connectTimeoutMs: 3_000, name: 'imagine-bot-test' });
    try {
      const open = await slots.open({ global: 1, perMember: 1 });
      await open.acquire('a', { signal: new AbortController().signal });
      const key = `${slots.namespace}:slots:global`;
      const [holder = ''] = await redis.zRange(key, 0, -1);
      const firstExpiry = Number(await redis.zScore(key, holder));
      const serverNow = async () => {
        const [seconds = '0', micros = '0'] = await redis.sendCommand<string[]>(['TIME']);
        return Number(seconds) * 1_000 + Math.floor(Number(micros) / 1_000);
      };
      await eventually(async () => (await serverNow()) > firstExpiry, 'the first expiry to pass', 500, 20);

      const controller = new AbortController();
      let waited = false;
      const onWait = () => {
        waited = true;
        controller.abort(new Error('still held'));
      };
      await expect(open.acquire('b', { signal: controller.signal, onWait })).rejects.toThrow('still held');
      expect(waited).toBe(true);
    } finally {
      redis.destroy();
      await slots.cleanup();
    }
  });
});

describe.skipIf(!POSTGRES_URL)(POSTGRES_URL ? 'PostgreSQL' : 'PostgreSQL: skipped because POSTGRES_URL is not set', () => {
  describeJobSlotsContract('PostgreSQL', () => opener(POSTGRES_URL ?? ''));
});
