import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Backend, openBackend } from '../../src/storage/open-backend.js';
import { type Storage, createStorage } from '../../src/storage/open-storage.js';
import { parseStorageUrl } from '../../src/storage/storage-url.js';
import { ManualClock, memoryLogger } from './helpers.js';

const ButtonState = z.object({ jobId: z.string(), page: z.number().int() });

describe('records()', () => {
  let clock: ManualClock;
  let backend: Backend;
  let storage: Storage;
  let log: ReturnType<typeof memoryLogger>;

  beforeEach(async () => {
    clock = new ManualClock('2025-03-12T12:00:00Z');
    log = memoryLogger();
    backend = await openBackend(parseStorageUrl('memory://'), { namespace: 'imagine-bot', connectTimeoutMs: 1_000, logger: log.logger });
    storage = createStorage(backend, { defaults: { limit: 1, period: 'day' }, jobLeaseMs: 1_000, clock, logger: log.logger });
  });
  afterEach(async () => storage.close());

  it('stores, reads back and deletes a record', async () => {
    const buttons = storage.records('button', ButtonState);
    await buttons.set('b1', { jobId: 'j1', page: 2 }, 60_000);
    expect(await buttons.get('b1')).toEqual({ jobId: 'j1', page: 2 });
    await buttons.delete('b1');
    expect(await buttons.get('b1')).toBeUndefined();
  });

  it('keeps namespaces apart', async () => {
    await storage.records('button', ButtonState).set('same-id', { jobId: 'j1', page: 1 }, 60_000);
    expect(await storage.records('pending-job', ButtonState).get('same-id')).toBeUndefined();
  });

  it('expires a record by the injected clock', async () => {
    const buttons = storage.records('button', ButtonState);
    await buttons.set('b1', { jobId: 'j1', page: 1 }, 60_000);
    clock.advance(59_999);
    expect(await buttons.get('b1')).toBeDefined();
    clock.advance(1);
    expect(await buttons.get('b1')).toBeUndefined();
  });

  it('reads an invalid or garbled record as undefined and logs it at error', async () => {
    await storage.records('button', z.object({ jobId: z.string() })).set('b1', { jobId: 'j1' }, 60_000);
    expect(await storage.records('button', ButtonState).get('b1')).toBeUndefined();
    await backend.kv.writeRaw('rec:button:b2', '%%%');
    expect(await storage.records('button', ButtonState).get('b2')).toBeUndefined();
    const errors = log.lines.filter((line) => line['level'] === 50).map((line) => line['msg']);
    expect(errors).toEqual(['invalid record ignored', 'corrupt record ignored']);
  });

  it('rejects a namespace that could collide with other keys', () => {
    expect(() => storage.records('usage:x', ButtonState)).toThrow(RangeError);
  });
});
