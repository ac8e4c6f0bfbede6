/**
 * Saved styles' names on every store (issue 32): two stores opened on one place (as two processes would) add names at
 * once, and the owner ends with exactly its limit, none lost, none twice; a removal is exact too.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';

const logger = pino({ level: 'silent' });
const opened: Storage[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const places: [string, string | undefined][] = [
  ['memory', 'memory://'],
  ['SQLite', `sqlite://${join(mkdtempSync(join(tmpdir(), 'presets-')), 'bot.sqlite')}`],
  ['Redis', process.env['REDIS_URL']],
  ['PostgreSQL', process.env['POSTGRES_URL']],
];

describe.each(places)('style names on %s', (name, url) => {
  it.skipIf(url === undefined)(
    `hold the limit and lose no name when two stores add at once (${url === undefined ? `skipped: no ${name} URL` : name})`,
    async () => {
      const namespace = `imagine-bot-test-${randomUUID()}`;
      const open = async () => {
        const storage = await openStorage({ url: url ?? '', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 60_000, logger, namespace });
        opened.push(storage);
        return storage;
      };
      // The memory store is one process's: both "stores" are the same one there.
      const one = await open();
      const two = url === 'memory://' ? one : await open();
      const owner = `m:g1:${randomUUID()}`;
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? one : two).presetIndexes.add(owner, `style-${String(i)}`, 20, 60_000)),
      );
      expect(results.filter((r) => r === 'added')).toHaveLength(20);
      expect(results.filter((r) => r === 'full')).toHaveLength(10);
      const names = await two.presetIndexes.names(owner);
      expect(new Set(names).size).toBe(20);
      expect(names.every((n, i) => results[Number(n.slice(6))] === 'added' && names.indexOf(n) === i)).toBe(true);
      expect(await one.presetIndexes.add(owner, names[0] ?? '', 20, 60_000)).toBe('present');

      const removed = await Promise.all([one.presetIndexes.remove(owner, names[0] ?? '', 60_000), two.presetIndexes.remove(owner, names[0] ?? '', 60_000)]);
      expect(removed.filter(Boolean)).toHaveLength(1);
      expect(await one.presetIndexes.names(owner)).toHaveLength(19);
      expect(await two.presetIndexes.add(owner, 'another', 20, 60_000)).toBe('added');
    },
  );
});
