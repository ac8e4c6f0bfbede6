/**
 * What the service room is built from (build-service.ts): its part of the configuration, and the other rooms' parts
 * it uses, seen through the ports.
 */
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Config } from '../config.js';
import type { AuditTrail } from '../ports/audit-trail.js';
import type { HistoryStore } from '../ports/history-store.js';
import type { FavoritesStore } from '../ports/favorites-store.js';
import type { PresetIndexStore } from '../ports/preset-index-store.js';
import type { JobMetrics } from '../ports/job-metrics.js';
import type { AbandonedJobNotifier } from '../ports/abandoned-job-notifier.js';
import type { LeaseTimers } from './lease-renewal.js';
import type { PostedImages } from '../ports/posted-images.js';
import type { ModelProfiles } from '../core/model-profiles.js';
import type { StrikeStore } from '../ports/strike-store.js';
import type { Clock } from '../ports/clock.js';
import type { DescribeCounts } from '../ports/describe-counts.js';
import type { ImageGateway } from '../ports/image-gateway.js';
import type { JobJournal } from '../ports/job-journal.js';
import type { JobSlots } from '../ports/job-slots.js';
import type { PromptModel } from '../ports/prompt-model.js';
import type { QuotaLedger } from '../ports/quota-ledger.js';
import type { RecordStore } from '../ports/record-store.js';
import type { SpendLedger } from '../ports/spend-ledger.js';
import type { UsageTotals } from '../ports/usage-totals.js';
import type { ChartParts } from './usage-chart.js';

/** What the service reads of the configuration. */
export type ServiceConfig = Pick<
  Config,
  | 'MAX_CONCURRENT_JOBS'
  | 'MAX_RUNNING_PER_MEMBER'
  | 'MAX_QUEUED_PER_MEMBER'
  | 'BUTTON_TTL_HOURS'
  | 'MEMORY_BUDGET_BYTES'
  | 'GATEWAY_MAX_RESPONSE_BYTES'
  | 'DESCRIBE_MEMORY_BYTES'
  | 'ATTACHMENT_MAX_BYTES'
  | 'HISTORY_DAYS'
  | 'MODERATION_STRIKES'
  | 'MODERATION_STRIKE_WINDOW_HOURS'
  | 'MODERATION_PAUSE_HOURS'
  | 'PROGRESS_INTERVAL_MS'
  | 'GATEWAY_PARTIAL_IMAGES'
  | 'JOB_LEASE_MS'
  | 'SVG_RENDER_CONCURRENCY'
  | 'SVG_RENDER_TIMEOUT_SECONDS'
  | 'MAX_DECODE_PIXELS'
  | 'STREAM_DELIVERIES'
  | 'PROMPT_MAX_TOKENS'
  | 'PROMPT_TIMEOUT_MS'
  | 'DESCRIBE_COOLDOWN_SECONDS'
>;

/** The stores the service keeps its state in (the storage room's, as ports). */
export interface ServiceStorage {
  quotas: QuotaLedger;
  spend: SpendLedger;
  journal: JobJournal;
  slots: JobSlots | undefined;
  records: <T>(namespace: string, schema: z.ZodType<T>) => RecordStore<T>;
  usageTotals: UsageTotals;
  describeCounts: DescribeCounts;
  history: HistoryStore;
  strikes: StrikeStore;
  favorites: FavoritesStore;
  presetIndexes: PresetIndexStore;
}

/** The metrics the service reports to (the operator's room's, when HTTP_PORT is set). */
export type ServiceMetrics = JobMetrics & { downloaded: (bytes: number) => void };

/** What the service is built with besides its configuration: the other rooms' parts it uses, as ports. */
export interface ServiceParts extends ChartParts {
  clock: Clock;
  logger: Logger;
  /** Timers of the quota lease renewals; the global (unref'd) timers by default. */
  leaseTimers?: LeaseTimers | undefined;
  storage: ServiceStorage;
  gateway: { client: ImageGateway; chat: PromptModel; profiles: ModelProfiles };
  discord: {
    audit: AuditTrail;
    notifier: AbandonedJobNotifier;
    /** The one download from Discord's CDN. */
    download: (url: string, maxBytes: number, signal?: AbortSignal, admit?: (bytes: number) => void) => Promise<Buffer>;
    postedImages: (memory: { take: (bytes: number, signal: AbortSignal) => Promise<() => void>; maxBytes: number }) => PostedImages;
  };
  ops: {
    metrics: ServiceMetrics | undefined;
    observeGateway: (gateway: ImageGateway) => ImageGateway;
    observeLedger: (ledger: QuotaLedger) => QuotaLedger;
  };
  /** The chat models prompt help uses (VISION_MODEL defaults to PROMPT_MODEL), and whether /imagine and /edit enhance. */
  prompt: { promptModel: string | undefined; visionModel: string | undefined; enhance: boolean };
}
