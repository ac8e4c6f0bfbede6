import type pino from 'pino';
import type { z } from 'zod';
import { type Clock, systemClock } from '../ports/clock.js';
import { type JobJournal } from '../ports/job-journal.js';
import { type JobSlots } from '../ports/job-slots.js';
import { type QuotaLedger } from '../ports/quota-ledger.js';
import { type QuotaLimit } from '../core/quota.js';
import { type RecordStore } from '../ports/record-store.js';
import { type SpendLedger } from '../ports/spend-ledger.js';
import type { HistoryStore } from '../ports/history-store.js';
import type { FavoritesStore } from '../ports/favorites-store.js';
import type { PresetIndexStore } from '../ports/preset-index-store.js';
import type { UsageTotals } from '../ports/usage-totals.js';
import type { StrikeStore } from '../ports/strike-store.js';
import { LedgerHistoryStore } from './history-store.js';
import { LedgerFavoritesStore } from './favorites-store.js';
import { LedgerPresetIndexStore } from './preset-index-store.js';
import { LedgerStrikeStore } from './strike-store.js';
import { LedgerJobJournal } from './job-journal.js';
import { LedgerUsageTotals } from './usage-totals-store.js';
import { LedgerDescribeCounts } from './describe-counts-store.js';
import type { DescribeCounts } from '../ports/describe-counts.js';
import type { JobSlotLimits } from './job-slots.js';
import { type Backend, openBackend } from './open-backend.js';
import { QuotaStore } from './quota-store.js';
import { SpendStore } from './spend-store.js';
import { KeyvRecordStore } from './record-store.js';
import { parseStorageUrl } from './storage-url.js';
import { withTimeout } from './with-timeout.js';

/** The key readiness reads: never written, so a ping reads nothing back. */
const PING_KEY = 'ping';

/** Everything the bot keeps: quotas and small expiring records. */
export interface Storage {
  quotas: QuotaLedger;
  /** The money limits, in the same ledger (spend-store.ts). */
  spend: SpendLedger;
  /** This process's journal of accepted jobs, in the ledger beside the quotas (see job-journal.ts). */
  journal: JobJournal;
  /** A store of `namespace` records validated with `schema` on read (button state, pending jobs). */
  records<T>(namespace: string, schema: z.ZodType<T>): RecordStore<T>;
  /**
   * Job slots shared by every process on the store, so the queue's running caps hold across them: offered by Redis
   * and PostgreSQL when `jobSlots` was given; undefined on SQLite and memory, whose caps are per process.
   */
  slots: JobSlots | undefined;
  /** Servers' daily usage totals (the /usage reports), exact across processes. */
  usageTotals: UsageTotals;
  /** Members' describes per period (the admins' describes cap), exact across processes. */
  describeCounts: DescribeCounts;
  /** Members' histories of delivered jobs (/history, /show), exact across processes. */
  history: HistoryStore;
  /** Members' favorites and the showcase's posts (issue 32), exact across processes. */
  favorites: FavoritesStore;
  /** The names of members' and servers' saved styles (issue 32), exact across processes. */
  presetIndexes: PresetIndexStore;
  /** Members' moderation strikes and pauses (issue 27), exact across processes. */
  strikes: StrikeStore;
  /** One cheap read (readiness): resolves when the store answers within `timeoutMs`, rejects otherwise. */
  ping(timeoutMs: number): Promise<void>;
  /** Disconnects from the backend; later operations throw StorageUnavailableError. */
  close(): Promise<void>;
}

/** Options of {@link openStorage}. */
export interface OpenStorageOptions {
  /**
   * STORAGE_URL: `sqlite://PATH` (relative to the working directory, or `sqlite:///absolute`; parent folders are
   * created), `redis://…`, `rediss://…`, `postgres://…`, `postgresql://…`, or `memory://` (tests).
   */
  url: string;
  /** Limit for DMs, user-installed contexts and servers without limits. */
  defaults: QuotaLimit;
  /** How long a reservation holds quota unless its job renews it (JOB_LEASE_MS); also how long a Redis job slot lasts unrefreshed. */
  jobLeaseMs: number;
  /** The limits of cluster job slots (MAX_CONCURRENT_JOBS, MAX_RUNNING_PER_MEMBER); without them none are opened. */
  jobSlots?: JobSlotLimits | undefined;
  /** @default systemClock */
  clock?: Clock | undefined;
  logger: pino.Logger;
  /** keyv namespace that prefixes every key; tests use a unique one per run. @default 'imagine-bot' */
  namespace?: string | undefined;
  /** How long connecting may take before open fails. @default 5000 */
  connectTimeoutMs?: number | undefined;
  /** Name of the bot's connections (PostgreSQL `application_name`, Redis CLIENT SETNAME); the ledger's are `{name}-ledger`. @default 'imagine-bot' */
  applicationName?: string | undefined;
  /** PostgreSQL: connections of keyv's pool and of the ledger's, each (POSTGRES_POOL_SIZE). @default 10 */
  postgresPoolSize?: number | undefined;
}

/**
 * Opens the storage named by `url`, checks the connection with a write and a read, and returns the quota
 * ledger and record stores over it. Throws `StorageUnavailableError` (naming scheme and host, never the
 * password) when the store cannot be reached within `connectTimeoutMs`, and an `Error` for an unknown scheme.
 */
export async function openStorage(options: OpenStorageOptions): Promise<Storage> {
  const location = parseStorageUrl(options.url);
  const logger = options.logger.child({ module: 'storage' });
  const backend = await openBackend(location, {
    namespace: options.namespace ?? 'imagine-bot',
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    applicationName: options.applicationName,
    slots: options.jobSlots && { limits: options.jobSlots, holdMs: options.jobLeaseMs },
    poolSize: options.postgresPoolSize,
    logger,
  });
  logger.info({ storage: location.display }, 'storage opened');
  return createStorage(backend, { ...options, logger });
}

/** Builds the stores over an open backend (tests use it to reach the backend underneath). */
export function createStorage(backend: Backend, options: Pick<OpenStorageOptions, 'defaults' | 'jobLeaseMs' | 'clock' | 'logger'>): Storage {
  const clock = options.clock ?? systemClock;
  const ledger = { kv: backend.kv, ledger: backend.ledger, leaseMs: options.jobLeaseMs, clock, logger: options.logger };
  return {
    quotas: new QuotaStore({ ...ledger, defaults: options.defaults }),
    spend: new SpendStore(ledger),
    slots: backend.slots,
    usageTotals: new LedgerUsageTotals(backend.ledger),
    describeCounts: new LedgerDescribeCounts(backend.ledger, clock),
    history: new LedgerHistoryStore(backend.ledger),
    favorites: new LedgerFavoritesStore(backend.ledger),
    presetIndexes: new LedgerPresetIndexStore(backend.ledger),
    strikes: new LedgerStrikeStore(backend.ledger),
    journal: new LedgerJobJournal({ ledger: backend.ledger, leaseMs: options.jobLeaseMs, clock, logger: options.logger }),
    records: (namespace, schema) => new KeyvRecordStore({ kv: backend.kv, namespace, schema, clock, logger: options.logger }),
    ping: async (timeoutMs) => {
      await withTimeout(backend.kv.get(PING_KEY), timeoutMs);
    },
    close: () => backend.close(),
  };
}
