/**
 * Servers' settings through the store (the `server-settings` records, validated on read: an unreadable record is
 * logged and reads as the defaults), kept for a few seconds per process like the quota limits: a change made
 * through this process applies at once, other processes see it within {@link SETTINGS_CACHE_MS}.
 */
import type { Clock } from '../ports/clock.js';
import type { RecordStore } from '../ports/record-store.js';
import { DEFAULT_SETTINGS, ServerSettings } from '../core/server-settings.js';

/** How long settings read from the store are used before they are read again. */
export const SETTINGS_CACHE_MS = 5_000;
/** Settings are kept until changed; the store's time to live is only a backstop. */
const KEEP_MS = 10 * 365 * 86_400_000;

/** What changed: the settings before and after. */
export interface SettingsChange {
  before: ServerSettings;
  after: ServerSettings;
}

/** Options of {@link SettingsStore}. */
export interface SettingsStoreOptions {
  records: RecordStore<ServerSettings>;
  clock: Clock;
  /** @default SETTINGS_CACHE_MS */
  cacheMs?: number | undefined;
}

/** Reads and changes servers' settings. */
export class SettingsStore {
  readonly #records: RecordStore<ServerSettings>;
  readonly #clock: Clock;
  readonly #cacheMs: number;
  readonly #cache = new Map<string, { settings: ServerSettings; readAt: number }>();

  constructor(options: SettingsStoreOptions) {
    this.#records = options.records;
    this.#clock = options.clock;
    this.#cacheMs = options.cacheMs ?? SETTINGS_CACHE_MS;
  }

  /** The server's settings (the defaults when it has none). @throws the store's error when it cannot be read */
  async get(guildId: string): Promise<ServerSettings> {
    const cached = this.#cache.get(guildId);
    if (cached && this.#clock.now() - cached.readAt < this.#cacheMs) return cached.settings;
    const settings = (await this.#records.get(guildId)) ?? DEFAULT_SETTINGS;
    this.#cache.set(guildId, { settings, readAt: this.#clock.now() });
    return settings;
  }

  /** Applies `change` to the server's settings as stored now, validates and writes the result. */
  async update(guildId: string, change: (settings: ServerSettings) => ServerSettings, by: string): Promise<SettingsChange> {
    const before = (await this.#records.get(guildId)) ?? DEFAULT_SETTINGS;
    const after = ServerSettings.parse({ ...change(before), updatedBy: by, updatedAt: this.#clock.now() });
    await this.#records.set(guildId, after, KEEP_MS);
    this.#cache.delete(guildId);
    return { before, after };
  }
}
