import { describe, expect, it } from 'vitest';
import type { Update } from '../../src/storage/atomic-store.js';
import { type CompareAndSet, OptimisticUpdater, type SwapOutcome } from '../../src/storage/optimistic-update.js';

/** A compare-and-set over a Map that counts its round trips; `interfere` changes a record behind the updater's back. */
class MapCas implements CompareAndSet {
  readonly records = new Map<string, string>();
  reads = 0;
  swaps = 0;

  async read(key: string): Promise<string | undefined> {
    this.reads += 1;
    return this.records.get(key);
  }

  async swap(key: string, expected: string | undefined, update: Update): Promise<SwapOutcome> {
    this.swaps += 1;
    const current = this.records.get(key);
    if (current !== expected) return { swapped: false, current };
    this.records.set(key, update.text);
    for (const beside of update.beside ?? []) this.records.set(beside.key, beside.text);
    return { swapped: true };
  }

  interfere(key: string, text: string): void {
    this.records.set(key, text);
  }
}

const increment = (text: string | undefined): Update => ({ text: String(Number(text ?? '0') + 1), ttlMs: 1_000 });

describe('OptimisticUpdater', () => {
  it('reads a record once, then decides on the text it wrote: one round trip per update', async () => {
    const cas = new MapCas();
    const updater = new OptimisticUpdater(cas);
    for (let i = 0; i < 5; i += 1) await updater.update('k', increment);
    expect(cas.records.get('k')).toBe('5');
    expect({ reads: cas.reads, swaps: cas.swaps }).toEqual({ reads: 1, swaps: 5 });
  });

  it('decides again on what the failed swap found when another writer changed the record', async () => {
    const cas = new MapCas();
    const updater = new OptimisticUpdater(cas);
    await updater.update('k', increment);
    cas.interfere('k', '10');
    await updater.update('k', increment);
    expect(cas.records.get('k')).toBe('11');
    expect({ reads: cas.reads, swaps: cas.swaps }).toEqual({ reads: 1, swaps: 3 });
  });

  it('trusts a decision to write nothing only on a fresh read', async () => {
    const cas = new MapCas();
    const updater = new OptimisticUpdater(cas);
    await updater.update('k', increment);
    cas.interfere('k', '0');
    const seen: (string | undefined)[] = [];
    const refuseAboveZero = (text: string | undefined) => {
      seen.push(text);
      return text === '0' ? increment(text) : undefined;
    };
    await updater.update('k', refuseAboveZero);
    expect(seen).toEqual(['1', '0']);
    expect(cas.records.get('k')).toBe('1');
  });

  it('writes the beside records with the record, and forgets a key written elsewhere', async () => {
    const cas = new MapCas();
    const updater = new OptimisticUpdater(cas);
    await updater.update('k', () => ({ text: 'a', ttlMs: 1, beside: [{ key: 'job', text: 'j', ttlMs: 1 }] }));
    expect(cas.records.get('job')).toBe('j');
    updater.forget('k');
    await updater.update('k', () => undefined);
    expect(cas.reads).toBe(2);
  });

  it('keeps the last known text of at most `capacity` records, the least recently used leaving first', async () => {
    const cas = new MapCas();
    const updater = new OptimisticUpdater(cas, 2);
    await updater.update('a', increment);
    await updater.update('b', increment);
    await updater.update('a', increment);
    await updater.update('c', increment);
    expect(cas.reads).toBe(3);
    await updater.update('a', increment);
    expect(cas.reads).toBe(3);
    await updater.update('b', increment);
    expect(cas.reads).toBe(4);
  });

  it('gives up after losing 100 races in a row', async () => {
    const cas = new MapCas();
    cas.swap = async () => ({ swapped: false, current: 'changed again' });
    await expect(new OptimisticUpdater(cas).update('k', increment)).rejects.toThrow(/changed under 100 updates in a row/);
  });
});
