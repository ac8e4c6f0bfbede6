import { EventEmitter } from 'node:events';
import { Keyv, type KeyvStoreAdapter } from 'keyv';
import { beforeEach, describe, expect, it } from 'vitest';
import type { QuotaSubject } from '../../src/core/quota.js';
import { KvStore, deserializeEntry, serializeEntry } from '../../src/storage/kv-store.js';
import { LIMIT_CACHE_MS, LimitStore } from '../../src/storage/limit-store.js';
import { ManualClock, silentLogger } from './helpers.js';

/** keyv's store over a Map that counts the reads of many keys and can hold them, having seen the Map as it was. */
class CountingStore extends EventEmitter implements KeyvStoreAdapter {
  readonly opts = {};
  readonly map = new Map<string, unknown>();
  manyReads = 0;
  #held: Promise<void> | undefined;

  /** Holds every read of many keys until the returned function is called. */
  hold(): () => void {
    let release!: () => void;
    this.#held = new Promise<void>((resolve) => {
      release = resolve;
    });
    return () => {
      this.#held = undefined;
      release();
    };
  }

  get<Value>(key: string): Promise<Value | undefined> {
    return Promise.resolve(this.map.get(key) as Value | undefined);
  }

  async getMany<Value>(keys: string[]): Promise<(Value | undefined)[]> {
    this.manyReads += 1;
    const seen = keys.map((key) => this.map.get(key) as Value | undefined);
    await this.#held;
    return seen;
  }

  set(key: string, value: unknown): Promise<void> {
    this.map.set(key, value);
    return Promise.resolve();
  }

  delete(key: string): Promise<boolean> {
    return Promise.resolve(this.map.delete(key));
  }

  clear(): Promise<void> {
    this.map.clear();
    return Promise.resolve();
  }
}

const alice: QuotaSubject = { guildId: 'g1', userId: 'alice', roleIds: ['r1'] };

describe('LimitStore', () => {
  let clock: ManualClock;
  let store: CountingStore;
  let limits: LimitStore;

  beforeEach(() => {
    clock = new ManualClock('2025-03-12T12:00:00Z');
    store = new CountingStore();
    const keyv = new Keyv<unknown>(store, { namespace: 'test', throwOnErrors: true, serialize: serializeEntry, deserialize: deserializeEntry });
    limits = new LimitStore({ kv: new KvStore(keyv, 'test://'), defaults: { limit: 5, period: 'day' }, clock, logger: silentLogger });
  });

  it('reads a member’s limits once per LIMIT_CACHE_MS, all in one round trip', async () => {
    expect(await limits.effective(alice)).toEqual({ limit: 5, period: 'day', source: 'default' });
    clock.advance(LIMIT_CACHE_MS - 1);
    expect(await limits.effective(alice)).toMatchObject({ source: 'default' });
    expect(store.manyReads).toBe(1);
    clock.advance(1);
    await limits.effective(alice);
    expect(store.manyReads).toBe(2);
  });

  it('reads only the limits it does not hold: a second member of the server', async () => {
    await limits.effective(alice);
    await limits.effective({ guildId: 'g1', userId: 'bob', roleIds: ['r1'] });
    expect(store.manyReads).toBe(2);
    expect(limits.cachedCount).toBe(4);
  });

  it('applies a change made through this process at once, even one made while a read was under way', async () => {
    const release = store.hold();
    const reading = limits.effective(alice);
    await limits.set({ kind: 'member', guildId: 'g1', userId: 'alice' }, { limit: 1, period: 'week' });
    release();
    expect(await reading).toMatchObject({ source: 'default' });
    expect(await limits.effective(alice)).toEqual({ limit: 1, period: 'week', source: 'member' });
    expect(await limits.set({ kind: 'member', guildId: 'g1', userId: 'alice' }, { limit: 2, period: 'day' })).toEqual({
      before: { limit: 1, period: 'week' },
      after: { limit: 2, period: 'day' },
    });
    expect(await limits.effective(alice)).toMatchObject({ limit: 2, source: 'member' });
  });

  it('reads again when the clock is set back', async () => {
    await limits.effective(alice);
    clock.advance(-1);
    await limits.effective(alice);
    expect(store.manyReads).toBe(2);
  });

  it('does not cache direct messages, which have no limits of their own', async () => {
    expect(await limits.effective({ guildId: null, userId: 'alice', roleIds: [] })).toMatchObject({ source: 'default' });
    expect(store.manyReads).toBe(0);
  });

  it('keeps at most 10,000 limits: stale ones go first, then all', async () => {
    const roles = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
    await limits.effective({ guildId: 'g1', userId: 'many', roleIds: roles(9_996, 'r') });
    expect(limits.cachedCount).toBe(9_998);
    clock.advance(LIMIT_CACHE_MS);
    await limits.effective({ guildId: 'g2', userId: 'few', roleIds: roles(2, 'r') });
    expect(limits.cachedCount).toBe(4);
    await limits.effective({ guildId: 'g3', userId: 'most', roleIds: roles(10_000, 'r') });
    expect(limits.cachedCount).toBeLessThan(10_000);
  });
});
