import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AtomicStore, Update } from '../../src/storage/atomic-store.js';
import { openSqliteAtomicStore } from '../../src/storage/atomic-sqlite.js';

const add =
  (n: number) =>
  (text: string | undefined): Update => ({ text: String(Number(text ?? '0') + n), ttlMs: 60_000 });

describe('the SQLite atomic store', () => {
  let dir: string;
  let store: AtomicStore;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'imagine-bot-atomic-'));
    store = await openSqliteAtomicStore(path.join(dir, 'bot.sqlite'), { namespace: 'test', busyTimeoutMs: 1_000 });
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('applies concurrent updates one after another, each seeing the writes before it', async () => {
    await Promise.all([1, 2, 3, 4].map((n) => store.update('sum', add(n))));
    expect(await store.get('sum')).toBe('10');
  });

  it('fails only the update whose decision throws; the others in its transaction are written', async () => {
    const outcomes = await Promise.allSettled([
      store.update('a', add(1)),
      store.update('b', () => {
        throw new Error('corrupt');
      }),
      store.update('c', () => ({ text: 'c', ttlMs: 60_000, beside: [{ key: 'c-job', text: 'job', ttlMs: 60_000 }] })),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect([await store.get('a'), await store.get('b'), await store.get('c'), await store.get('c-job')]).toEqual(['1', undefined, 'c', 'job']);
  });

  it('reads a record past its time to live as missing', async () => {
    // A time to live of 0 puts the expiry at the moment of writing, which every later read is at or after.
    await store.set('gone', { text: 'x', ttlMs: 0 });
    expect(await store.get('gone')).toBeUndefined();
    await store.update('gone', (text) => ({ text: text === undefined ? 'fresh' : 'stale', ttlMs: 60_000 }));
    expect(await store.get('gone')).toBe('fresh');
  });

  it('clears only its own namespace of a shared file', async () => {
    const neighbour = await openSqliteAtomicStore(path.join(dir, 'bot.sqlite'), { namespace: 'neighbour', busyTimeoutMs: 1_000 });
    await Promise.all([store.update('k', add(1)), neighbour.update('k', add(2))]);
    await store.clear();
    expect([await store.get('k'), await neighbour.get('k')]).toEqual([undefined, '2']);
    await neighbour.close();
  });

  it('fails every update of a transaction the database refuses, writing nothing', async () => {
    await store.close();
    const outcomes = await Promise.allSettled([store.update('a', add(1)), store.update('b', add(1))]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
  });
});
