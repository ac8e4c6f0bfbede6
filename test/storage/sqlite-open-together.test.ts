/**
 * Shards starting together on one new SQLite file: every process opens it, although they race to create its tables
 * and switch it to WAL (a connection that loses answers SQLITE_BUSY, and is opened again).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFixture, type FixtureProcess } from './fixture-process.js';

const PROCESSES = 6;

describe('a new SQLite file opened by several processes at once', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is opened by every one of them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'imagine-open-together-'));
    dirs.push(dir);
    const url = `sqlite://${join(dir, 'bot.sqlite')}`;
    const children: FixtureProcess[] = Array.from({ length: PROCESSES }, () => startFixture('opener', { url }));
    try {
      for (const child of children) expect(await child.nextLine()).toBe('ready');
      for (const child of children) child.send('go');
      const said = await Promise.all(children.map((child) => child.nextLine()));
      expect(said).toEqual(Array.from({ length: PROCESSES }, () => 'opened'));
    } finally {
      for (const child of children) if (child.process.exitCode === null) child.process.kill();
    }
  }, 60_000);
});
