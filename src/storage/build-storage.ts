/** The storage room, built from its part of the configuration: the store STORAGE_URL names, opened and checked. */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Clock } from '../ports/clock.js';
import { openStorage, type Storage } from './open-storage.js';

/** What the storage reads of the configuration. */
export type StorageConfig = Pick<
  Config,
  'STORAGE_URL' | 'QUOTA_DEFAULT_LIMIT' | 'QUOTA_DEFAULT_PERIOD' | 'JOB_LEASE_MS' | 'MAX_CONCURRENT_JOBS' | 'MAX_RUNNING_PER_MEMBER' | 'POSTGRES_POOL_SIZE'
>;

/** What the storage is built with besides its configuration. */
export interface StorageParts {
  clock: Clock;
  logger: Logger;
  /** The key namespace and connection name, so a test on a shared database keeps to its own. */
  names?: { namespace: string; applicationName: string } | undefined;
}

/** Opens the storage (see {@link openStorage}): quotas, money limits, the job journal, records and the cluster job slots. */
export function buildStorage(config: StorageConfig, parts: StorageParts): Promise<Storage> {
  return openStorage({
    url: config.STORAGE_URL,
    defaults: { limit: config.QUOTA_DEFAULT_LIMIT, period: config.QUOTA_DEFAULT_PERIOD },
    jobLeaseMs: config.JOB_LEASE_MS,
    jobSlots: { global: config.MAX_CONCURRENT_JOBS, perMember: config.MAX_RUNNING_PER_MEMBER },
    postgresPoolSize: config.POSTGRES_POOL_SIZE,
    clock: parts.clock,
    logger: parts.logger,
    ...parts.names,
  });
}
