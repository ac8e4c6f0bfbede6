import type pino from 'pino';
import type { ClusterJobSlots, JobSlotLimits } from './job-slots.js';
import type { StorageLocation } from './storage-url.js';

/** How to open the cluster job slots. */
export interface JobSlotsOptions {
  /** Prefix of their keys, as of every other key of the bot. */
  namespace: string;
  limits: JobSlotLimits;
  /** How long a Redis hold lasts unrefreshed (JOB_LEASE_MS). */
  holdMs: number;
  connectTimeoutMs: number;
  /** Name of their connections (PostgreSQL `application_name`, Redis CLIENT SETNAME). */
  applicationName: string;
  /** PostgreSQL connections at most. @default limits.global */
  maxConnections?: number | undefined;
  logger: pino.Logger;
}

/**
 * Opens job slots shared by every process on the store at `location`, with a connection of their own: Redis and
 * PostgreSQL offer them. SQLite and memory do not (undefined): there the queue's limits are each process's own.
 */
export async function openJobSlots(location: StorageLocation, options: JobSlotsOptions): Promise<ClusterJobSlots | undefined> {
  const { namespace, limits, logger, display } = { ...options, display: location.display };
  switch (location.scheme) {
    case 'memory':
    case 'sqlite':
      return undefined;
    case 'redis': {
      // The Redis and PostgreSQL drivers are imported only for their own stores (open-backend.ts).
      const [{ RedisJobSlots }, { connectRedis }] = await Promise.all([import('./job-slots-redis.js'), import('./redis-client.js')]);
      const client = await connectRedis(location.url, { connectTimeoutMs: options.connectTimeoutMs, name: options.applicationName });
      return new RedisJobSlots(client, { namespace, limits, holdMs: options.holdMs, display, logger });
    }
    case 'postgres': {
      const { openPostgresJobSlots } = await import('./job-slots-postgres.js');
      return openPostgresJobSlots(location.url, {
        namespace,
        limits,
        applicationName: options.applicationName,
        connectTimeoutMs: options.connectTimeoutMs,
        maxConnections: options.maxConnections,
        display,
        logger,
      });
    }
  }
}
