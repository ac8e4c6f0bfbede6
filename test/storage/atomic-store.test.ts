/**
 * The AtomicStore contract, the same on every backend: reads and writes with a time to live, an update that sees
 * the record and writes it with its `beside` records in one step, a decision that throws aborts only its own
 * update, a decision of undefined writes nothing, clear() empties only its own namespace, close() is idempotent.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryAtomicStore } from '../../src/storage/atomic-memory.js';
import { openPostgresAtomicStore } from '../../src/storage/atomic-postgres.js';
import { RedisAtomicStore } from '../../src/storage/atomic-redis.js';
import { openSqliteAtomicStore } from '../../src/storage/atomic-sqlite.js';
import type { AtomicStore } from '../../src/storage/atomic-store.js';
import { connectRedis } from '../../src/storage/redis-client.js';
import { silentLogger } from '../fakes/memory-logger.js';

const REDIS_URL = process.env['REDIS_URL'];
const POSTGRES_URL = process.env['POSTGRES_URL'];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Opens two stores of one namespace (and one of another) on the backend. */
type Open = (namespace: string) => Promise<AtomicStore>;

const backends: [string, string | undefined, () => Open][] = [
  [
    'memory',
    undefined,
    () => {
      const shared = new MemoryAtomicStore();
      return () => Promise.resolve(shared);
    },
  ],
  [
    'SQLite',
    undefined,
    () => {
      let file: string | undefined;
      return async (namespace) => {
        if (file === undefined) {
          const dir = await mkdtemp(path.join(os.tmpdir(), 'imagine-bot-atomic-contract-'));
          dirs.push(dir);
          file = path.join(dir, 'bot.sqlite');
        }
        return openSqliteAtomicStore(file, { namespace, busyTimeoutMs: 1_000 });
      };
    },
  ],
  [
    'Redis',
    REDIS_URL === undefined ? 'REDIS_URL is not set' : undefined,
    () => async (namespace) =>
      new RedisAtomicStore(await connectRedis(REDIS_URL ?? '', { connectTimeoutMs: 5_000, name: 'imagine-bot-atomic-contract' }), namespace),
  ],
  [
    'PostgreSQL',
    POSTGRES_URL === undefined ? 'POSTGRES_URL is not set' : undefined,
    () => (namespace) =>
      openPostgresAtomicStore(POSTGRES_URL ?? '', {
        namespace,
        applicationName: 'imagine-bot-atomic-contract',
        connectTimeoutMs: 5_000,
        display: 'postgres',
        logger: silentLogger,
      }),
  ],
];

for (const [name, skipReason, factory] of backends) {
  describe.skipIf(skipReason !== undefined)(
    skipReason === undefined ? `the atomic store on ${name}` : `the atomic store on ${name}: skipped because ${skipReason}`,
    () => {
      let open: Open;
      let namespace: string;
      const opened: AtomicStore[] = [];
      const store = async (ns = namespace) => {
        const s = await open(ns);
        opened.push(s);
        return s;
      };
      beforeEach(() => {
        open = factory();
        namespace = `contract-${randomUUID()}`;
      });
      afterEach(async () => {
        for (const s of opened.splice(0)) {
          await s.clear().catch(() => undefined);
          await s.close();
        }
      });

      it('reads what was written, and nothing for a missing key', async () => {
        const s = await store();
        await s.set('a', { text: 'one', ttlMs: 60_000 });
        expect(await s.get('a')).toBe('one');
        expect(await s.get('missing')).toBeUndefined();
      });

      it('forgets a record past its time to live', async () => {
        const s = await store();
        await s.set('short', { text: 'gone soon', ttlMs: 1 });
        await s.set('long', { text: 'kept', ttlMs: 60_000 });
        // Waits for real time to pass the 1 ms time to live (the backends keep real time), not for a fixed period.
        const until = Date.now() + 2;
        while (Date.now() < until) await new Promise((resolve) => setImmediate(resolve));
        expect(await s.get('short')).toBeUndefined();
        expect(await s.get('long')).toBe('kept');
      });

      it('updates from the current record and writes the records beside it in the same step', async () => {
        const s = await store();
        await s.update('counter', (text) => ({ text: String(Number(text ?? '0') + 1), ttlMs: 60_000 }));
        await s.update('counter', (text) => ({
          text: String(Number(text ?? '0') + 1),
          ttlMs: 60_000,
          beside: [{ key: 'counter-job', text: 'job', ttlMs: 60_000 }],
        }));
        expect([await s.get('counter'), await s.get('counter-job')]).toEqual(['2', 'job']);
      });

      it('writes nothing when the decision is undefined, and nothing when it throws (rethrown as it is)', async () => {
        const s = await store();
        await s.set('kept', { text: 'as it was', ttlMs: 60_000 });
        await s.update('kept', () => undefined);
        const refusal = new Error('corrupt record');
        await expect(
          s.update('kept', () => {
            throw refusal;
          }),
        ).rejects.toBe(refusal);
        expect(await s.get('kept')).toBe('as it was');
      });

      it('deletes a record, so another store of the namespace and a later update find it missing', async () => {
        const [first, second] = [await store(), await store()];
        await first.update('gone', () => ({ text: 'one', ttlMs: 60_000 }));
        await first.set('kept', { text: 'two', ttlMs: 60_000 });
        await second.delete('gone');
        await second.delete('never-written');
        expect([await first.get('gone'), await second.get('gone'), await first.get('kept')]).toEqual([undefined, undefined, 'two']);
        // The first store last wrote 'one' there: its update must decide on the record as it is now, missing.
        const seen: (string | undefined)[] = [];
        await first.update('gone', (text) => (seen.push(text), { text: 'again', ttlMs: 60_000 }));
        expect(seen.at(-1)).toBeUndefined();
        expect(await second.get('gone')).toBe('again');
      });

      it('applies concurrent updates from two stores of one namespace one after another', async () => {
        const [first, second] = [await store(), await store()];
        const add = (text: string | undefined) => ({ text: String(Number(text ?? '0') + 1), ttlMs: 60_000 });
        await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? first : second).update('sum', add)));
        expect(await first.get('sum')).toBe('20');
      });

      it('clears only its own namespace, and closes more than once', async () => {
        const mine = await store();
        const other = await store(`${namespace}-other`);
        await mine.set('k', { text: 'mine', ttlMs: 60_000 });
        await other.set('k', { text: 'theirs', ttlMs: 60_000 });
        if (name !== 'memory') {
          await mine.clear();
          expect(await mine.get('k')).toBeUndefined();
          expect(await other.get('k')).toBe('theirs');
        }
        await mine.close();
        await expect(mine.close()).resolves.toBeUndefined();
      });
    },
  );
}
