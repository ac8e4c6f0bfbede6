/**
 * What an image job is built from, grouped by the step that uses it: the rules checked before anything is held, the
 * holds (ledger, journal, lease), the production (queue, downloads, memory, gateway call, files) and the listeners
 * told once the job has settled. {@link resolveJobDeps} fills in the defaults once, when the service is built.
 */
import type { Logger } from 'pino';
import type { AuditTrail } from '../../ports/audit-trail.js';
import type { ClaimedJobs } from '../claimed-jobs.js';
import { DEFAULT_MAX_DECODE_PIXELS } from '../../core/image-rules.js';
import type { JobArchive } from '../job-archive.js';
import { NO_JOB_METRICS, type JobMetrics } from '../../ports/job-metrics.js';
import type { AttachmentRef } from '../../core/jobs.js';
import { type LeaseTimers, systemLeaseTimers } from '../lease-renewal.js';
import type { MemberHistory } from '../member-history.js';
import { MemoryBudget } from '../memory-budget.js';
import type { ModerationGate } from '../moderation-gate.js';
import { ModelProfiles } from '../../core/model-profiles.js';
import type { Clock } from '../../ports/clock.js';
import type { ImageGateway } from '../../ports/image-gateway.js';
import type { JobJournal } from '../../ports/job-journal.js';
import type { QuotaLedger } from '../../ports/quota-ledger.js';
import type { SpendLedger } from '../../ports/spend-ledger.js';
import { systemClock } from '../../ports/clock.js';
import type { PromptHelp } from '../prompt-help.js';
import type { SettingsStore } from '../settings-store.js';
import type { StreamedDelivery } from '../streaming/streamed-delivery.js';
import { SvgRenderer } from '../svg-render.js';
import type { FairQueue } from '../fair-queue.js';
import type { UsageLog } from '../usage-log.js';
import type { UsageTotals } from '../../ports/usage-totals.js';

/** The rules a request meets before anything is held (preflight and confirm). */
export interface JobRules {
  /** Servers' settings (defaults, allowed models, counts, channels, previews); without it, every server has the defaults. */
  settings?: Pick<SettingsStore, 'get'> | undefined;
  /** What each model accepts (MODEL_PROFILES_FILE over the built-in profiles). @default the built-in profiles */
  profiles?: ModelProfiles | undefined;
  /** Moderation strikes (moderation-gate.ts): paused members are refused first, moderation refusals count; without it, neither. */
  moderation?: Pick<ModerationGate, 'check' | 'counted'> | undefined;
  /** Prompt help's enhance (PROMPT_MODEL); without it, `enhance` is ignored with a notice. */
  promptHelp?: Pick<PromptHelp, 'enhance' | 'enhanceCall'> | undefined;
  /** Where a request waits for its member to confirm its cost; without it, requests run unasked. */
  confirmations?: Pick<JobArchive, 'stashConfirmation'> | undefined;
}

/** What a job holds while it runs (holds.ts). */
export interface HoldDeps {
  quotas: QuotaLedger;
  /** The money limits (estimate held, actual cost committed); without them, no money limit applies. */
  spend?: SpendLedger | undefined;
  /**
   * Where accepted jobs are recorded until they settle, so that another process can tell their members if this one
   * dies (see abandoned-jobs.ts); without it, such a member is not told (their reservation still lapses).
   */
  journal?: JobJournal | undefined;
  /** The ledger's lease (JOB_LEASE_MS); an accepted job renews its reservation every third of it. @default 60000 */
  jobLeaseMs?: number | undefined;
  /** @default the global timers */
  leaseTimers?: LeaseTimers | undefined;
}

/** What making and posting a job's images takes (produce and deliver). */
export interface ProduceDeps {
  queue: FairQueue;
  /** Per-member waiting limit, named in the queue-full message. @default 10 */
  perMemberQueued?: number | undefined;
  /** Downloads one member attachment (host allow-list applied), reading no more than `maxBytes`. */
  download: (ref: AttachmentRef, maxBytes: number, signal?: AbortSignal) => Promise<Buffer>;
  /**
   * ATTACHMENT_MAX_BYTES: a reference declared larger is refused before anything is fetched, and one of no declared
   * size is read no further than this (or its share of the memory budget, if less). @default 52428799
   */
  maxAttachmentBytes?: number | undefined;
  /**
   * The process's memory budget (MEMORY_BUDGET_BYTES) for references, answers and linked images; jobs beyond it
   * wait. @default a budget of 192 MiB with 64 MiB answers
   */
  memory?: MemoryBudget | undefined;
  /**
   * The longest an edit waits, in its queue slot, for room for its references; past it the job ends with a message
   * (nothing charged) instead of holding its slot. @default 60000
   */
  referenceWaitMs?: number | undefined;
  /** The process's SVG renders (svg-render.ts: SVG_RENDER_CONCURRENCY, SVG_RENDER_TIMEOUT_SECONDS). @default one at a time, 10 s */
  svg?: SvgRenderer | undefined;
  /** MAX_DECODE_PIXELS: the most pixels a reference's or a result's header may declare (decode-guard.ts). @default 50_000_000 */
  maxDecodePixels?: number | undefined;
  /**
   * The streamed delivery (answer Buffers, uploads while the answer arrives); without it each
   * answer is read by the gateway on its own and posted once it is complete (STREAM_DELIVERIES=false).
   */
  streaming?: StreamedDelivery | undefined;
  /** Partial images to ask for when streaming; 0 turns streaming off. @default 1 */
  partialImages?: number | undefined;
  /** Minimum time between two progress edits. @default 3000 */
  progressIntervalMs?: number | undefined;
  /** How long jobs wait and how much they upload, for the operator's metrics. @default observes nothing */
  metrics?: Pick<JobMetrics, 'queueWaited' | 'uploaded'> | undefined;
}

/** The bookkeeping told of each settled job (listeners/), each optional: without it, nothing of its kind is kept. */
export interface ListenerDeps {
  /** Records what each job that reached the gateway cost (usage-log.ts). */
  usage?: Pick<UsageLog, 'record'> | undefined;
  /** Remembers delivered jobs (and presented cards) for their buttons; without it, buttons find nothing. */
  archive?: Pick<JobArchive, 'remember'> | undefined;
  /** Members' histories (/history, /show); without it, delivered jobs are not listed. */
  history?: Pick<MemberHistory, 'record'> | undefined;
  /** Servers' daily usage totals, which /usage reads (usage-totals.ts). */
  totals?: Pick<UsageTotals, 'add'> | undefined;
  /** Where a server's audit channel is told of each job (audit-trail.ts). */
  audit?: Pick<AuditTrail, 'job'> | undefined;
  /** How jobs end, for the operator's metrics. @default observes nothing */
  metrics?: Pick<JobMetrics, 'jobSettled'> | undefined;
}

/** `T` with the fields `K` filled in (their defaults applied). */
type Filled<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: Exclude<T[P], undefined> };

/** The steps' dependencies with their defaults filled in. */
export interface JobDeps {
  gateway: ImageGateway;
  log: Logger;
  clock: Clock;
  claims: ClaimedJobs | undefined;
  rules: Filled<JobRules, 'profiles'>;
  holds: Filled<HoldDeps, 'jobLeaseMs' | 'leaseTimers'>;
  /** Everything but the queue, the download and the (optional) streamed delivery has a default. */
  produce: Filled<ProduceDeps, Exclude<keyof ProduceDeps, 'queue' | 'download' | 'streaming'>>;
}

const DEFAULT_PROFILES = new ModelProfiles();

/** The defaults of the step groups (see each field's `@default`). */
export function resolveJobDeps(
  options: { gateway: ImageGateway; logger: Logger; clock?: Clock | undefined; claims?: ClaimedJobs | undefined },
  groups: { rules: JobRules; holds: HoldDeps; produce: ProduceDeps },
): JobDeps {
  const { rules, holds, produce } = groups;
  return {
    gateway: options.gateway,
    log: options.logger.child({ module: 'image-service' }),
    clock: options.clock ?? systemClock,
    claims: options.claims,
    rules: { ...rules, profiles: rules.profiles ?? DEFAULT_PROFILES },
    holds: { ...holds, jobLeaseMs: holds.jobLeaseMs ?? 60_000, leaseTimers: holds.leaseTimers ?? systemLeaseTimers },
    produce: {
      ...produce,
      perMemberQueued: produce.perMemberQueued ?? 10,
      maxAttachmentBytes: produce.maxAttachmentBytes ?? 52_428_799,
      memory: produce.memory ?? new MemoryBudget(),
      referenceWaitMs: produce.referenceWaitMs ?? 60_000,
      svg: produce.svg ?? new SvgRenderer(),
      maxDecodePixels: produce.maxDecodePixels ?? DEFAULT_MAX_DECODE_PIXELS,
      partialImages: produce.partialImages ?? 1,
      progressIntervalMs: produce.progressIntervalMs ?? 3_000,
      metrics: produce.metrics ?? NO_JOB_METRICS,
    },
  };
}

/** The model a request without one goes to: the gateway's default in use now. */
export function defaultModel(gateway: ImageGateway): string {
  return gateway.cachedModels().find((m) => m.default === true)?.id ?? 'the default model';
}
