/**
 * The service room, built from its part of the configuration over the other rooms' parts, seen through the ports:
 * the fair queue, the memory budget, servers' settings, the job archive, members' histories, moderation strikes,
 * the image and describe use cases, quota administration, the usage reports and the sweep of abandoned jobs.
 */
import { AbandonedJobs } from './abandoned-jobs.js';
import { ClaimedJobs } from './claimed-jobs.js';
import { DescribedPrompts, DescribeService } from './describe-service.js';
import { FairQueue } from './fair-queue.js';
import { ImageService } from './image-service.js';
import { ArchivedJob, JobArchive, PendingEdit } from './job-archive.js';
import { MemberHistory } from './member-history.js';
import { MemoryBudget } from './memory-budget.js';
import { processGarbage } from '../garbage.js';
import { ModerationGate } from './moderation-gate.js';
import type { QuotaLedger } from '../ports/quota-ledger.js';
import type { RecordStore } from '../ports/record-store.js';
import { PromptHelp } from './prompt-help.js';
import { QuotaAdmin } from './quota-admin.js';
import { ServerSettings } from '../core/server-settings.js';
import { SettingsStore } from './settings-store.js';
import { StreamedDelivery } from './streaming/streamed-delivery.js';
import { SvgRenderer } from './svg-render.js';
import { DescribeUsage, JobUsage, UsageLog } from './usage-log.js';
import { UsageReport } from './usage-report.js';
import { UsageCharts } from './usage-chart.js';
import { buildStylePresets, jobDownload } from './build-presets.js';
import { MemberActions } from './member-actions.js';
import type { ServiceConfig, ServiceParts } from './service-parts.js';

/** The built service. */
export interface Service extends Pick<Shared, 'presets'> {
  images: ImageService;
  describe: DescribeService;
  queue: FairQueue;
  settings: SettingsStore;
  archive: JobArchive;
  history: MemberHistory;
  moderation: ModerationGate;
  quotas: QuotaAdmin;
  usage: UsageReport;
  usageCharts: UsageCharts;
  /** The sweep of jobs whose process died (started once the bot is logged in). */
  abandoned: AbandonedJobs;
}

/** What the use cases share. */
interface Shared {
  queue: FairQueue;
  quotas: QuotaLedger;
  settings: SettingsStore;
  memory: MemoryBudget;
  archive: JobArchive;
  history: MemberHistory;
  moderation: ModerationGate;
  claims: ClaimedJobs;
  promptHelp: PromptHelp;
  jobUsage: RecordStore<JobUsage>;
  describeUsage: RecordStore<DescribeUsage>;
  presets: ReturnType<typeof buildStylePresets>;
  actions: MemberActions;
}

/** Builds the service room (nothing runs until a command calls it or the sweep starts). */
export function buildService(config: ServiceConfig, parts: ServiceParts): Service {
  const { storage, logger } = parts;
  const shared = buildShared(config, parts);
  const { queue, quotas, settings, archive, history, moderation, claims, jobUsage, describeUsage } = shared;
  const audit = parts.discord.audit;
  return {
    images: buildImageService(config, parts, shared),
    presets: shared.presets,
    describe: buildDescribeService(config, parts, shared),
    queue,
    settings,
    archive,
    history,
    moderation,
    quotas: new QuotaAdmin({ quotas, spend: storage.spend, settings, audit, logger }),
    usage: new UsageReport({ totals: storage.usageTotals, jobs: jobUsage, describes: describeUsage }),
    usageCharts: new UsageCharts({ renderer: parts.charts, memory: shared.memory, logger }),
    // Jobs of processes that died (this one before a restart included): refunded and their members told.
    abandoned: new AbandonedJobs({
      claims,
      journal: storage.journal,
      quotas: storage.quotas,
      spend: storage.spend,
      archive,
      notifier: parts.discord.notifier,
      leaseMs: config.JOB_LEASE_MS,
      logger,
    }),
  };
}

function buildShared(config: ServiceConfig, parts: ServiceParts): Shared {
  const { storage, clock, logger } = parts;
  const settings = new SettingsStore({ records: storage.records('server-settings', ServerSettings), clock });
  // Emoji, stickers, showcase posts and styles: counted in /usage and told to the audit channel.
  const actions = new MemberActions({ settings, audit: parts.discord.audit, totals: storage.usageTotals, clock, logger });
  // One budget for every image the process holds: edits' references and answers, the images being described and those /show posts again.
  const memory = new MemoryBudget({
    totalBytes: config.MEMORY_BUDGET_BYTES,
    answerBytes: config.GATEWAY_MAX_RESPONSE_BYTES,
    describeBytes: config.DESCRIBE_MEMORY_BYTES,
    reclaim: (counted, incoming, ceiling) => processGarbage.reclaim(counted, incoming, ceiling),
  });
  return {
    queue: new FairQueue({
      concurrency: config.MAX_CONCURRENT_JOBS,
      perMemberRunning: config.MAX_RUNNING_PER_MEMBER,
      perMemberQueued: config.MAX_QUEUED_PER_MEMBER,
      // Redis and PostgreSQL share them between processes, so the running caps hold across all of them.
      slots: storage.slots,
    }),
    quotas: parts.ops.observeLedger(storage.quotas),
    settings,
    memory,
    archive: new JobArchive({
      jobs: storage.records('jobs', ArchivedJob),
      pendingEdits: storage.records('pending-edits', PendingEdit),
      confirmations: storage.records('cost-confirmations', ArchivedJob),
      jobTtlMs: config.BUTTON_TTL_HOURS * 3_600_000,
    }),
    history: buildHistory(config, parts, memory, settings),
    moderation: buildModeration(config, parts, settings),
    // This process's running jobs: those another process claims while this one looks dead are stopped.
    claims: new ClaimedJobs(),
    // Prompt help (issue 19): the gateway's chat models; off (and unregistered) without PROMPT_MODEL/VISION_MODEL.
    promptHelp: new PromptHelp({
      chat: parts.gateway.chat,
      promptModel: parts.prompt.promptModel,
      visionModel: parts.prompt.visionModel,
      maxTokens: config.PROMPT_MAX_TOKENS,
      logger,
    }),
    jobUsage: storage.records('job-usage', JobUsage),
    describeUsage: storage.records('describe-usage', DescribeUsage),
    presets: buildStylePresets(config, parts, memory, actions),
    actions,
  };
}

const hours = (count: number): number => count * 3_600_000;

/** Members' histories; /show's images wait in the references' region, as an edit's do. */
function buildHistory(config: ServiceConfig, parts: ServiceParts, memory: MemoryBudget, settings: SettingsStore): MemberHistory {
  return new MemberHistory({
    store: parts.storage.history,
    images: parts.discord.postedImages({ take: (bytes, signal) => memory.takeReferences(bytes, signal), maxBytes: memory.referenceBytes }),
    clock: parts.clock,
    keepMs: config.HISTORY_DAYS * 86_400_000,
    settings,
  });
}

/** Moderation strikes (issue 27): one member's refused prompts must not earn the gateway a resource-wide block. */
function buildModeration(config: ServiceConfig, parts: ServiceParts, settings: SettingsStore): ModerationGate {
  return new ModerationGate({
    store: parts.storage.strikes,
    policy: { strikes: config.MODERATION_STRIKES, windowMs: hours(config.MODERATION_STRIKE_WINDOW_HOURS), pauseMs: hours(config.MODERATION_PAUSE_HOURS) },
    settings,
    audit: parts.discord.audit,
    clock: parts.clock,
    logger: parts.logger,
  });
}

function buildImageService(config: ServiceConfig, parts: ServiceParts, shared: Shared): ImageService {
  const { storage, logger, clock } = parts;
  const { claims, settings, archive, history, quotas, moderation, queue, memory, promptHelp, jobUsage } = shared;
  const { audit, download: cdnDownload } = parts.discord;
  const { profiles, client: gateway } = parts.gateway;
  const { metrics } = parts.ops;
  return new ImageService({
    gateway: parts.ops.observeGateway(gateway),
    logger,
    clock,
    claims,
    rules: { settings, profiles, moderation, promptHelp: parts.prompt.enhance ? promptHelp : undefined, confirmations: archive },
    holds: { quotas, spend: storage.spend, journal: storage.journal, jobLeaseMs: config.JOB_LEASE_MS, leaseTimers: parts.leaseTimers },
    produce: {
      queue,
      perMemberQueued: config.MAX_QUEUED_PER_MEMBER,
      download: jobDownload(shared.presets, cdnDownload, metrics),
      maxAttachmentBytes: config.ATTACHMENT_MAX_BYTES,
      memory,
      svg: new SvgRenderer({ concurrency: config.SVG_RENDER_CONCURRENCY, timeoutSeconds: config.SVG_RENDER_TIMEOUT_SECONDS }),
      maxDecodePixels: config.MAX_DECODE_PIXELS,
      streaming: config.STREAM_DELIVERIES ? new StreamedDelivery() : undefined,
      partialImages: config.GATEWAY_PARTIAL_IMAGES,
      progressIntervalMs: config.PROGRESS_INTERVAL_MS,
      metrics,
    },
    listeners: { usage: new UsageLog(jobUsage), archive, history, totals: storage.usageTotals, audit, metrics },
    favorites: storage.favorites,
    actions: shared.actions,
  });
}

function buildDescribeService(config: ServiceConfig, parts: ServiceParts, shared: Shared): DescribeService {
  const { storage, clock, logger } = parts;
  const { profiles } = parts.gateway;
  const { download } = parts.discord;
  return new DescribeService({
    help: shared.promptHelp,
    records: storage.records('described-prompts', DescribedPrompts),
    memory: shared.memory,
    usage: shared.describeUsage,
    spend: storage.spend,
    pricesOf: (model) => profiles.of(model).profile.prices,
    totals: storage.usageTotals,
    counts: storage.describeCounts,
    clock,
    download: (ref, maxBytes, signal, admit) => download(ref.url, maxBytes, signal, admit),
    maxAttachmentBytes: config.ATTACHMENT_MAX_BYTES,
    cooldownMs: config.DESCRIBE_COOLDOWN_SECONDS * 1000,
    timeLimitMs: config.PROMPT_TIMEOUT_MS + 60_000,
    maxDecodePixels: config.MAX_DECODE_PIXELS,
    ttlMs: config.BUTTON_TTL_HOURS * 3_600_000,
    settings: shared.settings,
    moderation: shared.moderation,
    logger,
  });
}
