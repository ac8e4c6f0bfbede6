import { createHash } from 'node:crypto';
import pg from 'pg';
import type pino from 'pino';
import type { SlotHold } from '../service/ports.js';
import { StorageUnavailableError } from './errors.js';
import { type ClusterJobSlots, type JobSlotLimits, pollForHold } from './job-slots.js';
import { withTimeout } from './with-timeout.js';

const TRY_LOCK = 'SELECT pg_try_advisory_lock($1::bigint) AS locked';
const UNLOCK_ALL = 'SELECT pg_advisory_unlock_all()';

/** Options of {@link openPostgresJobSlots}. */
export interface PostgresJobSlotsOptions {
  /** Part of every lock key, so bots (or test runs) sharing a database keep apart. */
  namespace: string;
  limits: JobSlotLimits;
  /** `application_name` of the slots' connections. */
  applicationName: string;
  connectTimeoutMs: number;
  /** Connections at most: one per job acquiring or holding slots. @default limits.global (this process's queue never has more) */
  maxConnections?: number | undefined;
  /** Scheme and host, for errors and log lines. */
  display: string;
  logger: pino.Logger;
}

/**
 * Opens cluster job slots on PostgreSQL: session advisory locks, on a pool of their own. Slot i of the global limit is
 * the lock key hash(`{namespace}:global:{i}`), slot i of a member's hash(`{namespace}:member:{id}:{i}`). A hold is
 * one pooled connection holding one member lock and one global lock for as long as the job runs; PostgreSQL frees a
 * session's advisory locks when its connection ends, so the slots of a process that died are free at once. Needs
 * direct connections (or session pooling): a transaction-pooling proxy would hand the session to others.
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
  try {
    await withTimeout(pool.query('SELECT 1'), options.connectTimeoutMs);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  return new PostgresJobSlots(pool, options, log);
}

class PostgresJobSlots implements ClusterJobSlots {
  readonly #pool: pg.Pool;
  readonly #options: PostgresJobSlotsOptions;
  readonly #log: pino.Logger;
  readonly #globalKeys: string[];
  readonly #held = new Set<() => void>();
  #closing: Promise<void> | undefined;

  constructor(pool: pg.Pool, options: PostgresJobSlotsOptions, log: pino.Logger) {
    this.#pool = pool;
    this.#options = options;
    this.#log = log;
    this.#globalKeys = lockKeys(`${options.namespace}:global`, options.limits.global);
  }

  acquire(memberId: string, options: { signal: AbortSignal; onWait?: (() => void) | undefined }): Promise<SlotHold> {
    const memberKeys = lockKeys(`${this.#options.namespace}:member:${memberId}`, this.#options.limits.perMember);
    return pollForHold(() => this.#tryOnce(memberKeys), options);
  }

  close(): Promise<void> {
    // Ending their connections frees the locks of jobs still running (a shutdown past its grace).
    for (const drop of this.#held) drop();
    this.#closing ??= this.#pool.end();
    return this.#closing;
  }

  /** One member lock and one global lock on one connection, or neither. */
  async #tryOnce(memberKeys: readonly string[]): Promise<SlotHold | undefined> {
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
      if ((await lockOne(client, memberKeys)) && (await lockOne(client, this.#globalKeys))) return this.#hold(done, client);
      await client.query(UNLOCK_ALL);
      done(false);
      return undefined;
    } catch (error) {
      // Destroyed, not returned: its session, and any lock it took, ends with it.
      done(true);
      throw this.#unavailable(error);
    }
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
        await client.query(UNLOCK_ALL);
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

/** Takes the first free lock of `keys`; whether it got one. */
async function lockOne(client: pg.PoolClient, keys: readonly string[]): Promise<boolean> {
  for (const key of keys) {
    const { rows } = await client.query<{ locked: boolean }>({ name: 'job-slot-try-lock', text: TRY_LOCK, values: [key] });
    if (rows[0]?.locked === true) return true;
  }
  return false;
}

/** `count` advisory lock keys for `name`: 64-bit hashes, so distinct names practically never share a lock. */
function lockKeys(name: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => createHash('sha256').update(`imagine-bot:job-slot:${name}:${i}`).digest().readBigInt64BE(0).toString());
}
