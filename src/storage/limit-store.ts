import type pino from 'pino';
import type { Clock } from '../ports/clock.js';
import type { QuotaLimit, QuotaSubject, QuotaTarget } from '../core/quota.js';
import { KeyedMutex } from './keyed-mutex.js';
import type { KvStore } from './kv-store.js';
import { type EffectiveLimit, pickEffectiveLimit } from '../core/quota-precedence.js';
import { IMAGES, LimitRecord, type Meter, limitKey } from './quota-records.js';

/** How long a limit read from the store is used before it is read again. */
export const LIMIT_CACHE_MS = 5_000;
/** Cached limits kept at most; beyond it the stale ones go, and if that is not enough, all of them. */
const MAX_CACHED = 10_000;

/** Options of {@link LimitStore}. */
export interface LimitStoreOptions {
  kv: KvStore;
  /** Limit for DMs, user-installed contexts and servers without limits. */
  defaults: QuotaLimit;
  /**
   * How long a limit read from the store is used before it is read again: the longest an admin's change made
   * through another process takes to reach this one. A change made through this process applies at once.
   * @default LIMIT_CACHE_MS
   */
  cacheMs?: number | undefined;
  /** Whose limits: images (the default) or money. */
  meter?: Meter | undefined;
  clock: Clock;
  logger: pino.Logger;
}

interface Cached {
  limit: QuotaLimit | undefined;
  readAt: number;
}

/**
 * The admins' limits (member, role, server) in keyv, read for every reservation. A limit read is kept for
 * `cacheMs`, so a member reserving again soon costs one round trip (the ledger's write) instead of two: limits
 * change rarely, reservations often. {@link set} drops the changed limit from this process's cache, and a read that
 * was under way while a limit changed is not kept, so this process's next reservation sees the change.
 *
 * A corrupt limit record is logged (each time it is read from the store) and ignored, so the next level applies.
 */
export class LimitStore {
  readonly #kv: KvStore;
  readonly #defaults: QuotaLimit;
  readonly #cacheMs: number;
  readonly #meter: Meter;
  readonly #clock: Clock;
  readonly #log: pino.Logger;
  readonly #mutex = new KeyedMutex();
  readonly #cache = new Map<string, Cached>();
  /** Counts changes made through this process: a read that saw another count than at its start is not kept. */
  #changes = 0;

  constructor(options: LimitStoreOptions) {
    this.#kv = options.kv;
    this.#defaults = options.defaults;
    this.#cacheMs = options.cacheMs ?? LIMIT_CACHE_MS;
    this.#meter = options.meter ?? IMAGES;
    this.#clock = options.clock;
    this.#log = options.logger;
  }

  /**
   * The member, server and role limits (from the cache, or those missing in one round trip), and the one that
   * applies, times the member's perk multiplier for this meter.
   */
  async effective(subject: QuotaSubject): Promise<EffectiveLimit> {
    const { guildId, userId } = subject;
    if (guildId === null) return pickEffectiveLimit({ roles: [], defaults: this.#defaults });
    const keys = [
      limitKey({ kind: 'member', guildId, userId }, this.#meter),
      limitKey({ kind: 'server', guildId }, this.#meter),
      ...subject.roleIds.map((roleId) => limitKey({ kind: 'role', guildId, roleId }, this.#meter)),
    ];
    const [member, server, ...roles] = await this.#read(keys);
    const candidates = { member, server, roles: roles.filter((found): found is QuotaLimit => found !== undefined), defaults: this.#defaults };
    return pickEffectiveLimit(candidates, subject.perks?.[this.#meter.multiplier] ?? 1);
  }

  /** Sets the limit of `target` and returns it with the one it replaces (read from the store, not the cache). */
  async set(target: QuotaTarget, limit: QuotaLimit): Promise<{ before: QuotaLimit | undefined; after: QuotaLimit }> {
    const parsed = LimitRecord.safeParse({ v: 1, ...limit });
    if (!parsed.success) throw new RangeError('limit must be a non-negative integer with period day, week or month');
    const key = limitKey(target, this.#meter);
    return this.#mutex.run(key, async () => {
      const before = this.#parse(key, await this.#kv.get(key));
      await this.#changing(key, () => this.#kv.set(key, parsed.data, undefined));
      return { before, after: { limit: parsed.data.limit, period: parsed.data.period } };
    });
  }

  /** Removes the limit of `target`, so the next level applies; returns the one removed. */
  async clear(target: QuotaTarget): Promise<{ before: QuotaLimit | undefined }> {
    const key = limitKey(target, this.#meter);
    return this.#mutex.run(key, async () => {
      const before = this.#parse(key, await this.#kv.get(key));
      await this.#changing(key, () => this.#kv.delete(key));
      return { before };
    });
  }

  async #changing(key: string, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } finally {
      // Even when the write failed: it may have landed before the connection went.
      this.#changes += 1;
      this.#cache.delete(key);
    }
  }

  /** Limits in the cache, stale ones included (for tests and diagnostics). */
  get cachedCount(): number {
    return this.#cache.size;
  }

  async #read(keys: readonly string[]): Promise<(QuotaLimit | undefined)[]> {
    const now = this.#clock.now();
    const cached = keys.map((key) => this.#fresh(key, now));
    const missing = keys.filter((_, index) => cached[index] === undefined);
    if (missing.length === 0) return cached.map((entry) => entry?.limit);
    const changes = this.#changes;
    const values = await this.#kv.getMany(missing);
    const read = new Map(missing.map((key, index) => [key, this.#parse(key, values[index])]));
    if (changes === this.#changes) for (const [key, limit] of read) this.#keep(key, { limit, readAt: now });
    return keys.map((key, index) => (cached[index] ? cached[index].limit : read.get(key)));
  }

  /** The cached entry while it is younger than `cacheMs` (a clock set back counts as stale). */
  #fresh(key: string, now: number): Cached | undefined {
    const entry = this.#cache.get(key);
    return entry && now >= entry.readAt && now - entry.readAt < this.#cacheMs ? entry : undefined;
  }

  #keep(key: string, entry: Cached): void {
    if (this.#cache.size >= MAX_CACHED) {
      for (const cachedKey of this.#cache.keys()) if (!this.#fresh(cachedKey, entry.readAt)) this.#cache.delete(cachedKey);
      if (this.#cache.size >= MAX_CACHED) this.#cache.clear();
    }
    this.#cache.set(key, entry);
  }

  #parse(key: string, raw: unknown): QuotaLimit | undefined {
    if (raw === undefined) return undefined;
    const parsed = LimitRecord.safeParse(raw);
    if (parsed.success) return { limit: parsed.data.limit, period: parsed.data.period };
    this.#log.error({ key }, 'corrupt limit record ignored');
    return undefined;
  }
}
