import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Keyv, type KeyvStoreAdapter } from 'keyv';
import KeyvSqlite from '@keyv/sqlite';
import type pino from 'pino';
import { StorageUnavailableError } from './errors.js';
import { KvStore, deserializeEntry, isBusy, serializeEntry, whileBusy } from './kv-store.js';
import type { ClusterJobSlots, JobSlotLimits } from './job-slots.js';
import type { Ledger } from './ledger.js';
import { openJobSlots } from './open-job-slots.js';
import { openLedger } from './open-ledger.js';
import type { ConnectionPlan } from './postgres-connections.js';
import { withTimeout } from './with-timeout.js';
import type { StorageLocation } from './storage-url.js';

/** An open connection to one backend: keyv for limits and records, the ledger for quota usage. */
export interface Backend {
  kv: KvStore;
  /** Atomic records in the backend itself, through its own client (see open-ledger.ts). */
  ledger: Ledger;
  /** Job slots shared by the processes on the store (Redis, PostgreSQL), when asked for and offered (see open-job-slots.ts). */
  slots?: ClusterJobSlots | undefined;
  /** Disconnects (idempotent); the store throws {@link StorageUnavailableError} afterwards. */
  close(): Promise<void>;
}

/** How to open a backend. */
export interface BackendOptions {
  /** keyv namespace: every key of the bot lives under it. */
  namespace: string;
  /** How long connecting may take before open fails. */
  connectTimeoutMs: number;
  /** Name of the bot's connections (PostgreSQL `application_name`, Redis CLIENT SETNAME); the ledger's are `{name}-ledger`. @default 'imagine-bot' */
  applicationName?: string | undefined;
  /** Opens cluster job slots with these limits, where the store offers them; their connections are `{name}-slots`. */
  slots?: { limits: JobSlotLimits; holdMs: number } | undefined;
  /** PostgreSQL: connections of keyv's pool and of the ledger's, each (POSTGRES_POOL_SIZE). @default 10 */
  poolSize?: number | undefined;
  logger: pino.Logger;
}

/** The connections a process opens on PostgreSQL with `options` (README "PostgreSQL connections"). */
export function postgresConnectionPlan(options: Pick<BackendOptions, 'slots' | 'poolSize'>): ConnectionPlan {
  const pool = options.poolSize ?? DEFAULT_POOL_SIZE;
  const slots = options.slots?.limits.global ?? 0;
  return { keyv: pool, ledger: pool, slots, listen: slots > 0 ? 1 : 0 };
}

interface Adapter {
  store: KeyvStoreAdapter | Map<string, unknown>;
  /** False when the adapter prefixes keys itself (@keyv/redis), so keyv must not add a second prefix. */
  keyvPrefixes: boolean;
  /** How long a busy (SQLITE_BUSY) operation is tried again; 0: not at all. */
  busyRetryMs?: number | undefined;
  close(): Promise<void>;
}

const DEFAULT_POOL_SIZE = 10;

/** As long as the ledger waits for the write lock (open-ledger.ts). */
const SQLITE_BUSY_RETRY_MS = 5_000;

/**
 * Opens the store at `location`, checks it answers a write and a read, and returns it. Throws
 * {@link StorageUnavailableError} naming scheme and host (never credentials) when it cannot within
 * `connectTimeoutMs`.
 */
export async function openBackend(location: StorageLocation, options: BackendOptions): Promise<Backend> {
  // Before any pool opens: a process that would not fit refuses to start instead of failing later under load.
  if (location.scheme === 'postgres') {
    const check = { connectTimeoutMs: options.connectTimeoutMs, applicationName: `${applicationName(options)}-check`, display: location.display };
    const { checkConnections } = await import('./postgres-connections.js');
    await checkConnections(location.url, postgresConnectionPlan(options), check).catch((error: unknown) => {
      throw error instanceof StorageUnavailableError ? error : unavailable(location, error);
    });
  }
  const adapter = await createAdapter(location, options).catch((error: unknown) => {
    throw unavailable(location, error);
  });
  const keyv = new Keyv<unknown>(adapter.store, {
    namespace: options.namespace,
    useKeyPrefix: adapter.keyvPrefixes,
    throwOnErrors: true,
    serialize: serializeEntry,
    deserialize: deserializeEntry,
  });
  // With throwOnErrors the error is thrown to the caller too; the event only feeds the log.
  keyv.on('error', (err: unknown) => {
    // A busy SQLite write is tried again (KvStore); only what finally fails is worth a line, and its caller logs it.
    if (!isBusy(err)) options.logger.warn({ err, storage: location.display }, 'storage error event');
  });
  const kv = new KvStore(keyv, location.display, { busyRetryMs: adapter.busyRetryMs });
  let ledger: Ledger | undefined;
  let slots: ClusterJobSlots | undefined;
  try {
    await withTimeout(probe(kv), options.connectTimeoutMs);
    ledger = await openLedger(location, { ...connection(options, 'ledger'), maxConnections: options.poolSize ?? DEFAULT_POOL_SIZE });
    slots = options.slots && (await openJobSlots(location, { ...options.slots, ...connection(options, 'slots') }));
  } catch (error) {
    await Promise.allSettled([adapter.close(), ledger?.close()]);
    throw unavailable(location, error);
  }
  const opened = { ledger, slots };
  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    kv.markClosed();
    await Promise.all([adapter.close(), opened.ledger.close(), opened.slots?.close()]);
  };
  // Idempotent: a second close (shutdown racing a failure path) must not end a pg pool twice.
  return { kv, ledger, slots, close: () => (closing ??= close()) };
}

/** How the ledger and the slots connect: each with connections of its own, named `{name}-{role}`. */
function connection(options: BackendOptions, role: string) {
  return {
    namespace: options.namespace,
    connectTimeoutMs: options.connectTimeoutMs,
    applicationName: `${applicationName(options)}-${role}`,
    logger: options.logger,
  };
}

function applicationName(options: BackendOptions): string {
  return options.applicationName ?? 'imagine-bot';
}

/** A write and a read of a key of its own: processes starting together on one store must not read each other's. */
async function probe(kv: KvStore): Promise<void> {
  const token = randomUUID();
  const key = `probe:${token}`;
  await kv.set(key, token, 60_000);
  if ((await kv.get(key)) !== token) throw new Error('probe value did not read back');
  await kv.delete(key);
}

async function createAdapter(location: StorageLocation, options: BackendOptions): Promise<Adapter> {
  switch (location.scheme) {
    case 'memory':
      return { store: new Map<string, unknown>(), keyvPrefixes: true, close: () => Promise.resolve() };
    case 'sqlite':
      // Bounded: Node's recursive mkdir can hang on special file systems such as /proc.
      return withTimeout(createSqliteAdapter(location.file), options.connectTimeoutMs);
    case 'redis':
      return createRedisAdapter(location.url, options);
    case 'postgres':
      return createPostgresAdapter(location.url, options);
  }
}

async function createSqliteAdapter(file: string): Promise<Adapter> {
  await mkdir(path.dirname(file), { recursive: true });
  // No busy wait inside SQLite on this connection: node-sqlite3 waits in a worker thread while holding the
  // connection's mutex, and the main thread needs that mutex to finalize statements, so a write waiting for the
  // ledger's transaction (which needs the main thread to commit) froze the process for the whole busy timeout.
  // A busy write fails at once instead, and KvStore tries it again on the event loop.
  // Processes starting together on a new file race to create its table and switch it to WAL: a connection that
  // lost (busy) is closed and opened again, since @keyv/sqlite keeps a failed table creation for good.
  const store = await whileBusy(() => openSqliteStore(file), SQLITE_BUSY_RETRY_MS);
  return { store, keyvPrefixes: true, busyRetryMs: SQLITE_BUSY_RETRY_MS, close: () => store.disconnect() };
}

async function openSqliteStore(file: string): Promise<KeyvSqlite> {
  const store = new KeyvSqlite({ uri: `sqlite://${file}` });
  try {
    // @keyv/sqlite skips a busyTimeout of 0, and node-sqlite3 otherwise waits 1 s by default.
    await store.query('PRAGMA busy_timeout = 0');
    // WAL with synchronous=NORMAL: commits no longer fsync one by one (thousands of reservations per second),
    // and a crash can lose at most the last few commits, never corrupt the file.
    await store.query('PRAGMA journal_mode = WAL');
    await store.query('PRAGMA synchronous = NORMAL');
    return store;
  } catch (error) {
    await store.disconnect().catch(() => undefined);
    throw error;
  }
}

async function createRedisAdapter(url: string, options: BackendOptions): Promise<Adapter> {
  // Imported for a redis:// store only: @keyv/redis and its client weigh about 15 MB the SQLite default never needs.
  const [{ default: KeyvRedis }, { connectRedis }] = await Promise.all([import('@keyv/redis'), import('./redis-client.js')]);
  const client = await connectRedis(url, { connectTimeoutMs: options.connectTimeoutMs, name: applicationName(options) });
  const store = new KeyvRedis(client, { throwOnErrors: true, throwOnConnectError: true });
  return { store, keyvPrefixes: false, close: () => store.disconnect() };
}

async function createPostgresAdapter(url: string, options: BackendOptions): Promise<Adapter> {
  // Imported for a postgres:// store only, like the Redis client (pg weighs about 14 MB).
  const { openPostgresKeyvStore } = await import('./postgres-keyv-store.js');
  const store = await openPostgresKeyvStore(url, {
    applicationName: applicationName(options),
    connectTimeoutMs: options.connectTimeoutMs,
    maxConnections: options.poolSize ?? DEFAULT_POOL_SIZE,
    logger: options.logger,
  });
  return { store, keyvPrefixes: true, close: () => store.disconnect() };
}

function unavailable(location: StorageLocation, cause: unknown): StorageUnavailableError {
  if (cause instanceof StorageUnavailableError && cause.message.startsWith('Cannot connect')) return cause;
  const reason = cause instanceof Error ? describeCause(cause, location) : 'unknown error';
  return new StorageUnavailableError(`Cannot connect to storage at ${location.display}: ${reason}`, { cause });
}

/** The innermost driver message, with any password from the URL blanked out. */
function describeCause(error: Error, location: StorageLocation): string {
  let inner: unknown = error;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  const message = inner instanceof Error && inner.message !== '' ? inner.message : error.message;
  const secret = 'url' in location ? passwordOf(location.url) : undefined;
  return secret ? message.split(secret).join('***') : message;
}

function passwordOf(url: string): string | undefined {
  try {
    const password = decodeURIComponent(new URL(url).password);
    return password === '' ? undefined : password;
  } catch {
    return undefined;
  }
}
