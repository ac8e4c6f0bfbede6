import type { AtomicStore } from './atomic-store.js';
import { MemoryAtomicStore } from './atomic-memory.js';
import { openSqliteAtomicStore } from './atomic-sqlite.js';
import { Ledger } from './ledger.js';
import type { StorageLocation } from './storage-url.js';
import { withTimeout } from './with-timeout.js';
import type pino from 'pino';

/** How to open the ledger. */
export interface LedgerOptions {
  /** Prefix of every ledger key, as keyv's namespace is of every other key. */
  namespace: string;
  connectTimeoutMs: number;
  /** Name of the ledger's connections (PostgreSQL `application_name`, Redis CLIENT SETNAME). */
  applicationName: string;
  /** PostgreSQL: connections of the ledger's pool. @default 10 */
  maxConnections?: number | undefined;
  logger: pino.Logger;
}

/** How long a SQLite transaction waits for another connection's write lock (the same as keyv's connection). */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens the quota ledger at the same place as the rest of the data, with the backend's own client (its own
 * connection, table or keys) where atomic updates need it. Throws the driver's error when it cannot.
 */
export async function openLedger(location: StorageLocation, options: LedgerOptions): Promise<Ledger> {
  return new Ledger(await openAtomicStore(location, options), location.display);
}

async function openAtomicStore(location: StorageLocation, options: LedgerOptions): Promise<AtomicStore> {
  switch (location.scheme) {
    case 'memory':
      return new MemoryAtomicStore();
    case 'sqlite':
      return withTimeout(
        openSqliteAtomicStore(location.file, { namespace: options.namespace, busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS }),
        options.connectTimeoutMs,
      );
    case 'redis': {
      // The Redis and PostgreSQL drivers are imported only for their own stores (open-backend.ts).
      const [{ RedisAtomicStore }, { connectRedis }] = await Promise.all([import('./atomic-redis.js'), import('./redis-client.js')]);
      return new RedisAtomicStore(
        await connectRedis(location.url, { connectTimeoutMs: options.connectTimeoutMs, name: options.applicationName }),
        options.namespace,
      );
    }
    case 'postgres': {
      const { openPostgresAtomicStore } = await import('./atomic-postgres.js');
      return openPostgresAtomicStore(location.url, {
        namespace: options.namespace,
        applicationName: options.applicationName,
        connectTimeoutMs: options.connectTimeoutMs,
        maxConnections: options.maxConnections,
        display: location.display,
        logger: options.logger,
      });
    }
  }
}
