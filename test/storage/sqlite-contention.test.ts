/**
 * Record writes and ledger transactions on one SQLite file in one process. node-sqlite3 runs a statement's busy
 * wait in a worker thread holding its connection's mutex, and the main thread needs that mutex to finalize
 * statements; with SQLite's own busy wait on the records' connection, a write waiting for a ledger transaction
 * (which needs the main thread to commit) froze the process for the whole busy timeout and then failed with
 * SQLITE_BUSY. Writes now fail at once when busy and are tried again on the event loop.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openStorage } from '../../src/storage/open-storage.js';
import { silentLogger } from './helpers.js';

describe('SQLite: record writes beside ledger transactions', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'imagine-bot-contention-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('lets every write and every reservation through when they arrive together', async () => {
    const storage = await openStorage({
      url: `sqlite://${path.join(dir, 'bot.sqlite')}`,
      defaults: { limit: 1_000, period: 'day' },
      jobLeaseMs: 60_000,
      logger: silentLogger,
    });
    try {
      const records = storage.records('pending', z.object({ n: z.number() }));
      const work: Promise<unknown>[] = [];
      for (let round = 0; round < 40; round += 1) {
        work.push(storage.quotas.reserve({ guildId: 'g', userId: `u${round % 8}`, roleIds: [] }, `job-${round}`, 1));
        work.push(records.set(`r-${round}`, { n: round }, 60_000));
      }
      const outcomes = await Promise.allSettled(work);
      expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
      expect(await records.get('r-39')).toEqual({ n: 39 });
    } finally {
      await storage.close();
    }
  });
});
