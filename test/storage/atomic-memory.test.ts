import { describe, expect, it } from 'vitest';
import { MemoryAtomicStore } from '../../src/storage/atomic-memory.js';

describe('the memory atomic store', () => {
  it('reads a record past its time to live as missing', async () => {
    const store = new MemoryAtomicStore();
    // A time to live of 0 puts the expiry at the moment of writing, which every later read is at or after.
    await store.set('gone', { text: 'x', ttlMs: 0 });
    expect(await store.get('gone')).toBeUndefined();
  });

  it('writes nothing when the decision throws, and rejects with its error', async () => {
    const store = new MemoryAtomicStore();
    const corrupt = new Error('corrupt');
    await expect(
      store.update('k', () => {
        throw corrupt;
      }),
    ).rejects.toBe(corrupt);
    expect(await store.get('k')).toBeUndefined();
  });

  it('writes the beside records with the record, and clears them all', async () => {
    const store = new MemoryAtomicStore();
    await store.update('k', () => ({ text: 'a', ttlMs: 60_000, beside: [{ key: 'job', text: 'j', ttlMs: 60_000 }] }));
    expect([await store.get('k'), await store.get('job')]).toEqual(['a', 'j']);
    await store.clear();
    expect([await store.get('k'), await store.get('job')]).toEqual([undefined, undefined]);
    await store.close();
  });
});
