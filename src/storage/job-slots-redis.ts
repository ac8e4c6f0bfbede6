import { randomUUID } from 'node:crypto';
import type pino from 'pino';
import type { SlotHold } from '../ports/job-slots.js';
import { StorageUnavailableError } from './errors.js';
import { type ClusterJobSlots, type JobSlotLimits, pollForHold } from './job-slots.js';
import type { RedisClient } from './redis-client.js';

/** Milliseconds of the server's clock, so processes whose clocks differ agree on expiries. */
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** Keeps a key at least as long as its latest holder (`ttl` from now), so an abandoned set cleans itself up. */
const KEEP = `local function keep(key, ttl)
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
end`;

/**
 * The counted semaphore with expiring holders (the pattern of redis-semaphore), over two sorted sets at once: KEYS[1]
 * the global holders, KEYS[2] the member's, each scored by its expiry. Drops expired holders, then adds ARGV[1] to
 * both for ARGV[4] ms only if the global set holds fewer than ARGV[2] and the member's fewer than ARGV[3]. 1 when
 * it did, else 0; one script, so both sets change together or not at all.
 */
const ACQUIRE = `${NOW}
${KEEP}
local limits = { tonumber(ARGV[2]), tonumber(ARGV[3]) }
for i = 1, 2 do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  if redis.call('ZCARD', KEYS[i]) >= limits[i] then return 0 end
end
local ttl = tonumber(ARGV[4])
for i = 1, 2 do
  redis.call('ZADD', KEYS[i], now + ttl, ARGV[1])
  keep(KEYS[i], ttl)
end
return 1`;

/** Extends holder ARGV[1] in both sets by ARGV[2] ms from now; 0 (and gone from both) when it had already expired. */
const REFRESH = `${NOW}
${KEEP}
local ttl = tonumber(ARGV[2])
for i = 1, 2 do
  local expires = redis.call('ZSCORE', KEYS[i], ARGV[1])
  if not expires or tonumber(expires) <= now then
    redis.call('ZREM', KEYS[1], ARGV[1])
    redis.call('ZREM', KEYS[2], ARGV[1])
    return 0
  end
end
for i = 1, 2 do
  redis.call('ZADD', KEYS[i], 'XX', now + ttl, ARGV[1])
  keep(KEYS[i], ttl)
end
return 1`;

/** The global set's key and the member's. */
type SlotKeys = [global: string, member: string];

/** Options of {@link RedisJobSlots}. */
export interface RedisJobSlotsOptions {
  /** Prefix of the slot keys (`{namespace}:slots:…`). */
  namespace: string;
  limits: JobSlotLimits;
  /** How long a hold lasts unrefreshed (JOB_LEASE_MS): a crashed process's slots are free after at most this. */
  holdMs: number;
  /** Scheme and host, for errors and log lines. */
  display: string;
  logger: pino.Logger;
}

/**
 * Cluster job slots on Redis through a client of their own. A hold is a holder id in the global sorted set and the
 * member's, refreshed every third of `holdMs` while the job runs; a process that dies stops refreshing, and its
 * holders expire. redis-semaphore implements this pattern for ioredis only, and holds one set per lock: here one
 * script takes the global and the member's slot together.
 */
export class RedisJobSlots implements ClusterJobSlots {
  readonly #client: RedisClient;
  readonly #options: RedisJobSlotsOptions;
  readonly #prefix: string;
  readonly #log: pino.Logger;
  readonly #refreshers = new Set<NodeJS.Timeout>();
  #closing: Promise<void> | undefined;

  constructor(client: RedisClient, options: RedisJobSlotsOptions) {
    this.#client = client;
    this.#options = options;
    this.#prefix = `${options.namespace}:slots:`;
    this.#log = options.logger.child({ module: 'job-slots', storage: options.display });
  }

  acquire(memberId: string, options: { signal: AbortSignal; onWait?: (() => void) | undefined }): Promise<SlotHold> {
    const keys: SlotKeys = [`${this.#prefix}global`, `${this.#prefix}member:${memberId}`];
    return pollForHold(() => this.#tryOnce(keys), options);
  }

  close(): Promise<void> {
    for (const timer of this.#refreshers) clearInterval(timer);
    this.#closing ??= this.#client.close().catch(() => {
      if (this.#client.isOpen) this.#client.destroy();
    });
    return this.#closing;
  }

  async #tryOnce(keys: SlotKeys): Promise<SlotHold | undefined> {
    const holder = randomUUID();
    const { global, perMember } = this.#options.limits;
    const args = [holder, String(global), String(perMember), String(this.#options.holdMs)];
    const reply = await this.#client.eval(ACQUIRE, { keys, arguments: args }).catch((error: unknown) => {
      throw new StorageUnavailableError(`Job slots unavailable at ${this.#options.display}`, { cause: error });
    });
    return reply === 1 ? this.#hold(keys, holder) : undefined;
  }

  #hold(keys: SlotKeys, holder: string): SlotHold {
    const timer = setInterval(() => void this.#refresh(keys, holder, timer), this.#options.holdMs / 3);
    timer.unref();
    this.#refreshers.add(timer);
    let released: Promise<void> | undefined;
    return { release: () => (released ??= this.#release(keys, holder, timer)) };
  }

  async #refresh(keys: SlotKeys, holder: string, timer: NodeJS.Timeout): Promise<void> {
    try {
      const reply = await this.#client.eval(REFRESH, { keys, arguments: [holder, String(this.#options.holdMs)] });
      if (reply === 1) return;
      this.#stop(timer);
      this.#log.warn('job slot lapsed before its job ended; the cluster may run one job more meanwhile');
    } catch (err) {
      this.#log.warn({ err }, 'job slot refresh failed; tried again at the next refresh');
    }
  }

  async #release(keys: SlotKeys, holder: string, timer: NodeJS.Timeout): Promise<void> {
    this.#stop(timer);
    try {
      await this.#client.multi().zRem(keys[0], holder).zRem(keys[1], holder).exec();
    } catch (err) {
      this.#log.warn({ err }, 'job slot release failed; it lapses with its expiry');
    }
  }

  #stop(timer: NodeJS.Timeout): void {
    clearInterval(timer);
    this.#refreshers.delete(timer);
  }
}
