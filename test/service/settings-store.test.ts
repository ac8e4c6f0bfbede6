/**
 * Servers' settings through a real store file shared by two SettingsStores (as two processes would share it):
 * cached for 5 s, a change applies at once where it was made and within the cache time elsewhere; an unreadable
 * record reads as the defaults.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, ServerSettings } from '../../src/core/server-settings.js';
import { SETTINGS_CACHE_MS, SettingsStore } from '../../src/service/settings-store.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { ManualClock } from '../fakes/manual-clock.js';

const GUILD = '123456789012345678';
const ADMIN = '223456789012345678';
const logger = pino({ level: 'silent' });
const opened: Storage[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function twoProcesses(): Promise<{ clock: ManualClock; a: SettingsStore; b: SettingsStore; storage: Storage }> {
  const url = `sqlite://${join(mkdtempSync(join(tmpdir(), 'settings-')), 'bot.sqlite')}`;
  const clock = new ManualClock(1_800_000_000_000);
  const open = () => openStorage({ url, defaults: { limit: 5, period: 'day' }, jobLeaseMs: 60_000, clock, logger });
  const [first, second] = [await open(), await open()];
  opened.push(first, second);
  const store = (s: Storage) => new SettingsStore({ records: s.records('server-settings', ServerSettings), clock });
  return { clock, a: store(first), b: store(second), storage: first };
}

describe('SettingsStore', () => {
  it('reads the defaults for a server without settings', async () => {
    const { a } = await twoProcesses();
    expect(await a.get(GUILD)).toEqual(DEFAULT_SETTINGS);
  });

  it('applies a change at once where it was made, and within the cache time in another process', async () => {
    const { clock, a, b } = await twoProcesses();
    expect((await b.get(GUILD)).previews).toBe(true);
    const { before, after } = await a.update(GUILD, (s) => ({ ...s, previews: false }), ADMIN);
    expect(before.previews).toBe(true);
    expect(after).toMatchObject({ previews: false, updatedBy: ADMIN, updatedAt: clock.now() });
    expect((await a.get(GUILD)).previews).toBe(false);
    expect((await b.get(GUILD)).previews).toBe(true);
    clock.advance(SETTINGS_CACHE_MS);
    expect((await b.get(GUILD)).previews).toBe(false);
  });

  it('refuses to store settings that do not validate', async () => {
    const { a } = await twoProcesses();
    await expect(a.update(GUILD, (s) => ({ ...s, maxCount: 11 }), ADMIN)).rejects.toThrow();
    expect(await a.get(GUILD)).toEqual(DEFAULT_SETTINGS);
  });

  it('reads an unreadable record as the defaults', async () => {
    const { a, storage, clock } = await twoProcesses();
    await storage.records('server-settings', ServerSettings.or(ServerSettings.loose())).set(GUILD, { ...DEFAULT_SETTINGS, maxCount: 99 }, 60_000);
    clock.advance(SETTINGS_CACHE_MS);
    expect(await a.get(GUILD)).toEqual(DEFAULT_SETTINGS);
  });
});
