import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Keyv, type KeyvStoreAdapter } from 'keyv';
import KeyvPostgres from '@keyv/postgres';
import KeyvRedis, { createClient } from '@keyv/redis';
import KeyvSqlite from '@keyv/sqlite';
import type pino from 'pino';
import { StorageUnavailableError } from './errors.js';
import { KvStore, deserializeEntry, serializeEntry } from './kv-store.js';
import type { StorageLocation } from './storage-url.js';

/** An open connection to one backend, seen through {@link KvStore}. */
export interface Backend {
  kv: KvStore;
  /** Disconnects (idempotent); the store throws {@link StorageUnavailableError} afterwards. */
  close(): Promise<void>;
}

/** How to open a backend. */
export interface BackendOptions {
  /** keyv namespace: every key of the bot lives under it. */
  namespace: string;
  /** How long connecting may take before open fails. */
  connectTimeoutMs: number;
  logger: pino.Logger;
}

interface Adapter {
  store: KeyvStoreAdapter | Map<string, unknown>;
  /** False when the adapter prefixes keys itself (@keyv/redis), so keyv must not add a second prefix. */
  keyvPrefixes: boolean;
  close(): Promise<void>;
}

/**
 * Opens the store at `location`, checks it answers a write and a read, and returns it. Throws
 * {@link StorageUnavailableError} naming scheme and host (never credentials) when it cannot within
 * `connectTimeoutMs`.
 */
export async function openBackend(location: StorageLocation, options: BackendOptions): Promise<Backend> {
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
  keyv.on('error', (err: unknown) => options.logger.warn({ err, storage: location.display }, 'storage error event'));
  const kv = new KvStore(keyv, location.display);
  try {
    await withTimeout(probe(kv), options.connectTimeoutMs);
  } catch (error) {
    await adapter.close().catch(() => undefined);
    throw unavailable(location, error);
  }
  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    kv.markClosed();
    await adapter.close();
  };
  // Idempotent: a second close (shutdown racing a failure path) must not end a pg pool twice.
  return { kv, close: () => (closing ??= close()) };
}

async function probe(kv: KvStore): Promise<void> {
  const token = `${Date.now()}-${Math.random()}`;
  await kv.set('probe', token, 60_000);
  if ((await kv.get('probe')) !== token) throw new Error('probe value did not read back');
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
  const store = new KeyvSqlite({ uri: `sqlite://${file}`, busyTimeout: 5_000 });
  // WAL with synchronous=NORMAL: commits no longer fsync one by one (thousands of reservations per second),
  // and a crash can lose at most the last few commits, never corrupt the file.
  await store.query('PRAGMA journal_mode = WAL');
  await store.query('PRAGMA synchronous = NORMAL');
  return { store, keyvPrefixes: true, close: () => store.disconnect() };
}

async function createRedisAdapter(url: string, options: BackendOptions): Promise<Adapter> {
  let connected = false;
  const client = createClient({
    url,
    // Fail a command at once while disconnected instead of queueing it: the request is refused (fail closed).
    disableOfflineQueue: true,
    socket: {
      connectTimeout: options.connectTimeoutMs,
      // Give up on the first failure at start (open must fail fast); reconnect with capped backoff later.
      reconnectStrategy: (retries: number, cause: Error) => (connected ? Math.min(2 ** retries * 100, 3_000) : cause),
    },
  });
  // Errors also reach callers as rejected commands; this listener only keeps node-redis from crashing on them.
  client.on('error', () => undefined);
  try {
    // connectTimeout covers the TCP connect only; a server that accepts but never answers needs this deadline.
    await withTimeout(client.connect(), options.connectTimeoutMs);
  } catch (error) {
    if (client.isOpen) client.destroy();
    throw error;
  }
  connected = true;
  const store = new KeyvRedis(client, { throwOnErrors: true, throwOnConnectError: true });
  return { store, keyvPrefixes: false, close: () => store.disconnect() };
}

function createPostgresAdapter(url: string, options: BackendOptions): Adapter {
  // @keyv/postgres keeps one pg.Pool per URI for the whole process and ends it on disconnect: open one
  // Storage per PostgreSQL URL at a time.
  const store = new KeyvPostgres({ uri: url, connectionTimeoutMillis: options.connectTimeoutMs, max: 10 });
  return { store, keyvPrefixes: true, close: () => store.disconnect() };
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
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
