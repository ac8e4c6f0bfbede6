import { randomUUID } from 'node:crypto';
import type pino from 'pino';
import type { SlotHold, SlotRequest } from '../ports/job-slots.js';
import { PRIORITY_LANE_WEIGHT } from '../core/member-perks.js';
import type { Lane } from '../core/server-settings.js';
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
 * the global holders, KEYS[2] the member's, each scored by its expiry; and the lanes' rule (src/core/lane-turns.ts)
 * between the jobs waiting in every process: KEYS[3] the priority lane's run, KEYS[4] and KEYS[5] the priority and
 * normal waiters, each scored by its expiry. Drops what expired; a waiter whose member's slots are full leaves its
 * lane (it could not take a freed slot). Then adds holder ARGV[1] to both holder sets for ARGV[4] ms only if the
 * member's set holds fewer than ARGV[3], it is lane ARGV[5]'s turn (weight ARGV[6]) and the global set holds fewer
 * than ARGV[2]: 1 when it did (the waiter leaves its lane, the run counts on), else 0 (the waiter stays in its lane
 * for ARGV[7] ms). One script, so all of it changes together or not at all.
 */
const ACQUIRE = `${NOW}
${KEEP}
local limits = { tonumber(ARGV[2]), tonumber(ARGV[3]) }
local ttl, lane, weight, waitMs = tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7])
local mine = lane == 'priority' and KEYS[4] or KEYS[5]
for _, i in ipairs({ 1, 2, 4, 5 }) do redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now) end
if redis.call('ZCARD', KEYS[2]) >= limits[2] then
  redis.call('ZREM', mine, ARGV[1])
  return 0
end
local run = tonumber(redis.call('GET', KEYS[3]) or '0')
local priorityWaits, normalWaits = redis.call('ZCARD', KEYS[4]) > 0, redis.call('ZCARD', KEYS[5]) > 0
local turn
if lane == 'priority' then turn = not (normalWaits and run >= weight) else turn = not (priorityWaits and run < weight) end
if not turn or redis.call('ZCARD', KEYS[1]) >= limits[1] then
  redis.call('ZADD', mine, now + waitMs, ARGV[1])
  keep(mine, waitMs)
  return 0
end
for i = 1, 2 do
  redis.call('ZADD', KEYS[i], now + ttl, ARGV[1])
  keep(KEYS[i], ttl)
end
redis.call('ZREM', mine, ARGV[1])
if lane == 'priority' and normalWaits then run = run + 1 else run = 0 end
redis.call('SET', KEYS[3], run, 'PX', ttl)
return 1`;

/**
 * How long a waiter keeps its place in its lane after its latest attempt: a few of its polls (at most 250 ms apart),
 * so a waiter whose process died holds the other lane back no longer.
 */
const WAITER_MS = 1_000;

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
/** The keys of the lanes' rule: the priority lane's run, its waiters and the normal lane's. */
type LaneKeys = [run: string, priority: string, normal: string];

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

  async acquire(memberId: string, options: SlotRequest): Promise<SlotHold> {
    const keys: SlotKeys = [`${this.#prefix}global`, `${this.#prefix}member:${memberId}`];
    const lanes: LaneKeys = [`${this.#prefix}lane-run`, `${this.#prefix}waiting:priority`, `${this.#prefix}waiting:normal`];
    // One id for the job: its place among the waiters, then its holder.
    const holder = randomUUID();
    const lane = options.lane ?? 'normal';
    try {
      return await pollForHold(() => this.#tryOnce(keys, lanes, holder, lane), options);
    } catch (error) {
      // Given up (or the store failed): out of its lane now, not when its place lapses.
      await this.#client.zRem(lane === 'priority' ? lanes[1] : lanes[2], holder).catch(() => undefined);
      throw error;
    }
  }

  close(): Promise<void> {
    for (const timer of this.#refreshers) clearInterval(timer);
    this.#closing ??= this.#client.close().catch(() => {
      if (this.#client.isOpen) this.#client.destroy();
    });
    return this.#closing;
  }

  async #tryOnce(keys: SlotKeys, lanes: LaneKeys, holder: string, lane: Lane): Promise<SlotHold | undefined> {
    const { global, perMember } = this.#options.limits;
    const args = [holder, String(global), String(perMember), String(this.#options.holdMs), lane, String(PRIORITY_LANE_WEIGHT), String(WAITER_MS)];
    const reply = await this.#client.eval(ACQUIRE, { keys: [...keys, ...lanes], arguments: args }).catch((error: unknown) => {
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
