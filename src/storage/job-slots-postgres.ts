import { createHash, randomInt, randomUUID } from 'node:crypto';
import pg from 'pg';
import type pino from 'pino';
import type { SlotHold, SlotRequest } from '../ports/job-slots.js';
import { PRIORITY_LANE_WEIGHT } from '../core/member-perks.js';
import { beginAttempt, createLaneTables, leaveLane, settleAttempt, TRY_NORMAL, WAITER_MS, type LaneWaiter } from './job-slot-lanes-postgres.js';
import { StorageUnavailableError } from './errors.js';
import type { ClusterJobSlots, JobSlotLimits } from './job-slots.js';
import { SlotWakeups } from './slot-wakeups.js';
import { withTimeout } from './with-timeout.js';

/**
 * The locks of one attempt, one statement: takes the first free lock of the member's keys ($1), then, if it got one
 * and it is the job's lane's turn ($3), the first free lock of the global keys ($2), and gives the member's back
 * when it took no global one. Each scan stops at its first win (LIMIT 1 over the function scan, no sort); the keys
 * arrive rotated to a random start, so waiters do not all queue on the first key. `member` null: the member's slots
 * were full; `global` null: the global ones, or not the lane's turn.
 */
const TRY_HOLD = `WITH m AS MATERIALIZED (SELECT k FROM unnest($1::bigint[]) AS k WHERE pg_try_advisory_lock(k) LIMIT 1),
  g AS MATERIALIZED (SELECT k FROM unnest($2::bigint[]) AS k WHERE EXISTS (SELECT 1 FROM m) AND $3::boolean AND pg_try_advisory_lock(k) LIMIT 1)
  SELECT (SELECT k FROM m) AS member, (SELECT k FROM g) AS global,
    (SELECT pg_advisory_unlock(k) FROM m WHERE NOT EXISTS (SELECT 1 FROM g)) AS undone`;
/** Frees the session's locks and tells every process's waiters a slot is free, in one statement. */
const RELEASE = 'SELECT pg_advisory_unlock_all(), pg_notify($1, $2)';

/** First pause of a waiter that no NOTIFY wakes; it doubles up to {@link MAX_PAUSE_MS}. */
const FIRST_PAUSE_MS = 100;
/** Longest pause: how late at most a waiter notices a slot freed without a NOTIFY (its process was killed). */
const MAX_PAUSE_MS = 1_000;
/** How soon a listener connection that dropped is opened again. */
const RELISTEN_MS = 1_000;

/** Options of {@link openPostgresJobSlots}. */
export interface PostgresJobSlotsOptions {
  /** Part of every lock key, so bots (or test runs) sharing a database keep apart. */
  namespace: string;
  limits: JobSlotLimits;
  /** `application_name` of the slots' connections; the listener's is `{name}-listen`. */
  applicationName: string;
  connectTimeoutMs: number;
  /** Connections at most: one per job acquiring or holding slots. @default limits.global (this process's queue never has more) */
  maxConnections?: number | undefined;
  /** Scheme and host, for errors and log lines. */
  display: string;
  logger: pino.Logger;
  /** A waiter's back-off when no NOTIFY wakes it (tests lengthen it to see the NOTIFY alone). @default 100 ms doubling to 1 s */
  pauseMs?: { first: number; max: number } | undefined;
}

/** Connections the slots open at most: the holders' pool and the listener. */
export const slotConnections = (options: Pick<PostgresJobSlotsOptions, 'limits' | 'maxConnections'>): number =>
  (options.maxConnections ?? options.limits.global) + 1;

/**
 * Opens cluster job slots on PostgreSQL: session advisory locks, on a pool of their own. Slot i of the global limit is
 * the lock key hash(`{namespace}:global:{i}`), slot i of a member's hash(`{namespace}:member:{id}:{i}`). A hold is
 * one pooled connection holding one member lock and one global lock for as long as the job runs; PostgreSQL frees a
 * session's advisory locks when its connection ends, so the slots of a process that died are free at once. An
 * attempt is one statement over all keys; a waiter then sleeps until a release's NOTIFY wakes it (one listening
 * connection per process) or its back-off (100 ms doubling to 1 s) ends. Needs direct connections (or session
 * pooling): a transaction-pooling proxy would hand the session to others.
 */
export async function openPostgresJobSlots(url: string, options: PostgresJobSlotsOptions): Promise<ClusterJobSlots> {
  const log = options.logger.child({ module: 'job-slots', storage: options.display });
  const pool = new pg.Pool({
    connectionString: url,
    application_name: options.applicationName,
    max: options.maxConnections ?? options.limits.global,
    connectionTimeoutMillis: options.connectTimeoutMs,
  });
  pool.on('error', (err) => log.warn({ err }, 'idle job slot connection lost'));
  const slots = new PostgresJobSlots(pool, url, options, log);
  try {
    await withTimeout(Promise.all([createLaneTables(pool, options.namespace), slots.listen()]), options.connectTimeoutMs);
  } catch (error) {
    await slots.close().catch(() => undefined);
    throw error;
  }
  return slots;
}

/** What one attempt found. */
interface Attempt {
  hold?: SlotHold | undefined;
  /** The member's slots were all taken, or it was not the job's lane's turn (another job may still get in). */
  passOn: boolean;
}

class PostgresJobSlots implements ClusterJobSlots {
  readonly #pool: pg.Pool;
  readonly #url: string;
  readonly #options: PostgresJobSlotsOptions;
  readonly #log: pino.Logger;
  readonly #globalKeys: string[];
  /** The channel of this namespace's releases: an identifier of lower-case letters, digits and underscores. */
  readonly #channel: string;
  readonly #wakeups = new SlotWakeups();
  readonly #held = new Set<() => void>();
  #listener: pg.Client | undefined;
  #relisten: NodeJS.Timeout | undefined;
  #closing: Promise<void> | undefined;

  constructor(pool: pg.Pool, url: string, options: PostgresJobSlotsOptions, log: pino.Logger) {
    this.#pool = pool;
    this.#url = url;
    this.#options = options;
    this.#log = log;
    this.#globalKeys = lockKeys(`${options.namespace}:global`, options.limits.global);
    this.#channel = `imagine_bot_slots_${createHash('sha256').update(options.namespace).digest('hex').slice(0, 24)}`;
  }

  async acquire(memberId: string, options: SlotRequest): Promise<SlotHold> {
    const waiter = { namespace: this.#options.namespace, waiter: randomUUID(), lane: options.lane ?? 'normal', weight: PRIORITY_LANE_WEIGHT };
    try {
      return await this.#acquire(memberId, waiter, options);
    } catch (error) {
      // Given up (or the store failed): out of its lane now, not when its place lapses.
      await leaveLane(this.#pool, waiter).catch(() => undefined);
      throw error;
    }
  }

  async #acquire(memberId: string, waiter: LaneWaiter, options: SlotRequest): Promise<SlotHold> {
    const { signal } = options;
    const memberKeys = lockKeys(`${this.#options.namespace}:member:${memberId}`, this.#options.limits.perMember);
    let budget = 0;
    for (let attempt = 0; ; attempt++) {
      signal.throwIfAborted();
      const { hold, passOn } = await this.#tryOnce(memberKeys, waiter);
      if (hold !== undefined) {
        if (!signal.aborted) return hold;
        await hold.release();
        signal.throwIfAborted();
      }
      // Woken for a freed slot this job cannot take (its member's are full, or it is the other lane's turn): the next waiter may.
      if (passOn && budget > 1) this.#wakeups.wake(budget - 1);
      if (attempt === 0) options.onWait?.();
      const { first, max } = this.#options.pauseMs ?? { first: FIRST_PAUSE_MS, max: MAX_PAUSE_MS };
      const pauseMs = Math.min(first * 2 ** Math.min(attempt, 30), max) * (0.5 + Math.random() / 2);
      budget = await this.#wakeups.wait(pauseMs, signal);
    }
  }

  close(): Promise<void> {
    // Ending their connections frees the locks of jobs still running (a shutdown past its grace).
    for (const drop of this.#held) drop();
    clearTimeout(this.#relisten);
    const listener = this.#listener;
    this.#listener = undefined;
    this.#closing ??= Promise.all([this.#pool.end(), listener?.end().catch(() => undefined)]).then(() => undefined);
    return this.#closing;
  }

  /** Opens the connection that hears releases; once it drops, waiters poll until it is open again. */
  async listen(): Promise<void> {
    const listener = new pg.Client({
      connectionString: this.#url,
      application_name: `${this.#options.applicationName}-listen`,
      connectionTimeoutMillis: this.#options.connectTimeoutMs,
    });
    listener.on('notification', () => this.#wakeups.wake());
    listener.on('error', (err) => {
      if (this.#listener !== listener || this.#closing) return;
      this.#listener = undefined;
      this.#log.warn({ err }, 'job slot listener lost; waiting jobs poll until it is back');
      listener.end().catch(() => undefined);
      this.#listenLater();
    });
    this.#listener = listener;
    try {
      await listener.connect();
      await listener.query(`LISTEN ${this.#channel}`);
    } catch (error) {
      if (this.#listener === listener) this.#listener = undefined;
      await listener.end().catch(() => undefined);
      throw error;
    }
    // Closed meanwhile: close() did not see this one.
    if (this.#closing) await listener.end().catch(() => undefined);
  }

  #listenLater(): void {
    clearTimeout(this.#relisten);
    this.#relisten = setTimeout(() => {
      if (this.#closing) return;
      this.listen().then(
        () => this.#log.info('job slot listener back'),
        (err: unknown) => {
          this.#log.warn({ err }, 'job slot listener not back; trying again');
          this.#listenLater();
        },
      );
    }, RELISTEN_MS).unref();
  }

  /** One member lock and one global lock on one connection, or neither; the lanes decide in the same transaction. */
  async #tryOnce(memberKeys: readonly string[], waiter: LaneWaiter): Promise<Attempt> {
    const client = await this.#pool.connect().catch((error: unknown) => {
      throw this.#unavailable(error);
    });
    // A held connection is outside the pool's own 'error' listener; without one, its loss would end the process.
    const lost = (err: Error) => this.#log.warn({ err }, 'job slot connection lost; its slots are free');
    client.on('error', lost);
    const done = (destroy: boolean) => {
      client.removeListener('error', lost);
      client.release(destroy);
    };
    try {
      const tried =
        (waiter.lane === 'normal' ? await this.#tryNormal(client, memberKeys, waiter) : undefined) ?? (await this.#trySerialised(client, memberKeys, waiter));
      if (tried.outcome === 'started') return { hold: this.#hold(done, client), passOn: false };
      done(false);
      return { passOn: tried.passOn };
    } catch (error) {
      // Destroyed, not returned: its session, and any lock it took, ends with it.
      done(true);
      throw this.#unavailable(error);
    }
  }

  /** A normal job's attempt in one statement while no priority job waits (TRY_NORMAL); undefined when one does. */
  async #tryNormal(client: pg.PoolClient, memberKeys: readonly string[], waiter: LaneWaiter): Promise<Tried | undefined> {
    const { rows } = await client.query<{ fast: boolean; member: string | null; global: string | null }>({
      name: 'job-slot-try-normal',
      text: TRY_NORMAL,
      values: [rotated(memberKeys), rotated(this.#globalKeys), waiter.namespace, waiter.waiter, WAITER_MS],
    });
    const row = rows[0];
    if (row?.fast !== true) return undefined;
    const outcome = outcomeOf(row);
    return { outcome, passOn: outcome === 'leaves' };
  }

  /** The full attempt, serialised by the lanes' row: its turn, the locks, and the lanes' bookkeeping of the outcome. */
  async #trySerialised(client: pg.PoolClient, memberKeys: readonly string[], waiter: LaneWaiter): Promise<Tried> {
    const turn = await beginAttempt(client, waiter);
    const { rows } = await client.query<{ member: string | null; global: string | null }>({
      name: 'job-slot-try-hold',
      text: TRY_HOLD,
      values: [rotated(memberKeys), rotated(this.#globalKeys), turn.mayStart],
    });
    const outcome = outcomeOf(rows[0]);
    await settleAttempt(client, waiter, turn, outcome);
    return { outcome, passOn: outcome === 'leaves' || !turn.mayStart };
  }

  #hold(done: (destroy: boolean) => void, client: pg.PoolClient): SlotHold {
    let finished = false;
    const finish = (destroy: boolean) => {
      if (finished) return;
      finished = true;
      this.#held.delete(drop);
      done(destroy);
    };
    const drop = () => finish(true);
    this.#held.add(drop);
    const unlock = async () => {
      try {
        await client.query({ name: 'job-slot-release', text: RELEASE, values: [this.#channel, ''] });
        finish(false);
      } catch (err) {
        this.#log.warn({ err }, 'job slot unlock failed; its connection is closed instead');
        finish(true);
      }
    };
    let released: Promise<void> | undefined;
    return { release: () => (released ??= finished ? Promise.resolve() : unlock()) };
  }

  #unavailable(cause: unknown): StorageUnavailableError {
    return new StorageUnavailableError(`Job slots unavailable at ${this.#options.display}`, { cause });
  }
}

/** What one attempt came to, and whether it passes its turn on to the next waiter. */
interface Tried {
  outcome: 'started' | 'waits' | 'leaves';
  passOn: boolean;
}

/** What an attempt's locks came to: the member's slots full (`leaves`), the global ones (or not the lane's turn: `waits`), or both held. */
function outcomeOf(row: { member: string | null; global: string | null } | undefined): 'started' | 'waits' | 'leaves' {
  return row?.member == null ? 'leaves' : row.global == null ? 'waits' : 'started';
}

/** `keys` starting at a random one, in a circle. */
function rotated(keys: readonly string[]): string[] {
  const start = keys.length > 1 ? randomInt(keys.length) : 0;
  return [...keys.slice(start), ...keys.slice(0, start)];
}

/** `count` advisory lock keys for `name`: 64-bit hashes, so distinct names practically never share a lock. */
function lockKeys(name: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => createHash('sha256').update(`imagine-bot:job-slot:${name}:${i}`).digest().readBigInt64BE(0).toString());
}
