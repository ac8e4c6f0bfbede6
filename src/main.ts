/**
 * The composition root: configuration → logger → storage → gateway → service → commands → router → Discord.
 * `npm start` runs src/cli.ts, which validates the configuration and then calls {@link runBot}; tests call
 * {@link startBot} with their own configuration.
 */
import { Client, Events, GatewayIntentBits, MessageFlags, Status, type Interaction, type RepliableInteraction, type REST } from 'discord.js';
import type { DestinationStream, Logger } from 'pino';
import { createComponents, createCommands, commandDefinitions } from './commands/index.js';
import { PendingDeletes } from './discord/pending-deletes.js';
import { promptFeaturesOf, promptModelsOf } from './commands/prompt-help-options.js';
import { ChatClient } from './gateway/chat-client.js';
import { PromptHelp } from './service/prompt-help.js';
import { DescribedPrompts, DescribeService } from './service/describe-service.js';
import { syncCommands } from './commands/command-sync.js';
import { DiscordResponder } from './discord/responder.js';
import { createImageAutocomplete } from './commands/image-autocomplete.js';
import { ModelProfiles } from './service/model-profiles.js';
import { ServerSettings } from './service/server-settings.js';
import { SettingsStore } from './service/settings-store.js';
import { DiscordAuditTrail } from './discord/audit-poster.js';
import { createInteractionRouter } from './commands/router.js';
import { InteractionChannels } from './commands/channel-facts.js';
import { configWarnings, shardPlan, type Config } from './config.js';
import { runUntilStopped } from './process-lifecycle.js';
import { loginWithin } from './discord/login.js';
import { createDiscordRestAgent } from './discord/rest-agent.js';
import { boundedCaches, forgetInteractionHandlers, REST_SWEEPS } from './discord/rest-sweeps.js';
import { createLogger } from './logger.js';
import { downloadAttachment, isAllowedAttachmentUrl } from './discord/cdn-download.js';
import { FairQueue } from './service/fair-queue.js';
import { createGatewayAgent } from './gateway/agent.js';
import { GatewayClient } from './gateway/gateway-client.js';
import { createDialect } from './gateway/dialects.js';
import { LinkPolicy } from './gateway/link-policy.js';
import { GatewayCheck } from './gateway/startup-check.js';
import { ImageService } from './service/image-service.js';
import { ClaimedJobs } from './service/claimed-jobs.js';
import { AbandonedJobs } from './service/abandoned-jobs.js';
import { DiscordAbandonedNotifier } from './discord/abandoned-notice.js';
import { MemoryBudget } from './service/memory-budget.js';
import { SvgRenderer } from './service/svg-render.js';
import { DescribeUsage, JobUsage, UsageLog } from './service/usage-log.js';
import { UsageReport } from './service/usage-report.js';
import { StreamedDelivery } from './service/streaming/streamed-delivery.js';
import { ArchivedJob, JobArchive, PendingEdit } from './service/job-archive.js';
import { MemberHistory } from './service/member-history.js';
import { DiscordPostedImages } from './discord/posted-images.js';
import { QuotaAdmin } from './service/quota-admin.js';
import { ModerationGate } from './service/moderation-gate.js';
import { systemClock, type Clock } from './service/ports.js';
import type { LeaseTimers } from './service/lease-renewal.js';
import { openStorage } from './storage/open-storage.js';
import { createInteractionWebhookRest } from './discord/original-reply.js';
import type { BotMetrics } from './ops/metrics.js';
import { interactionKind } from './ops/interaction-kind.js';
import { observeGateway } from './ops/observed-gateway.js';
import { observeLedger } from './ops/observed-ledger.js';
import { catalogueIsFresh, READINESS_TIMEOUT_MS, startOperations } from './ops/operations.js';
import type { HealthServer } from './ops/health-server.js';

/** Test seams; production passes nothing. */
export interface BotOverrides {
  clock?: Clock | undefined;
  logDestination?: DestinationStream | undefined;
  /** Timers of the quota lease renewals; the global (unref'd) timers by default. */
  leaseTimers?: LeaseTimers | undefined;
  /** The storage's key namespace and connection name, so a test on a shared database keeps to its own. */
  storageNames?: { namespace: string; applicationName: string } | undefined;
}

/** A running bot. */
export interface RunningBot {
  client: Client;
  logger: Logger;
  /** The REST clients (discord.js's and the interaction webhooks' one), whose rate-limit handlers tests count. */
  rests: readonly REST[];
  /** The port the health server (HTTP_PORT) listens on; undefined when it is off. */
  httpPort: number | undefined;
  /** Stops taking work, lets in-flight jobs finish (up to the grace period), closes everything. */
  stop(): Promise<void>;
}

/** Starts the bot and resolves once it is logged in and its commands are in sync. */
export async function startBot(config: Config, overrides: BotOverrides = {}): Promise<RunningBot> {
  const clock = overrides.clock ?? systemClock;
  const logger = createLogger({ level: config.LOG_LEVEL, pretty: config.LOG_PRETTY, destination: overrides.logDestination });
  for (const warning of configWarnings(config)) logger.warn(warning);
  const storage = await openStorage({
    url: config.STORAGE_URL,
    defaults: { limit: config.QUOTA_DEFAULT_LIMIT, period: config.QUOTA_DEFAULT_PERIOD },
    jobLeaseMs: config.JOB_LEASE_MS,
    jobSlots: { global: config.MAX_CONCURRENT_JOBS, perMember: config.MAX_RUNNING_PER_MEMBER },
    postgresPoolSize: config.POSTGRES_POOL_SIZE,
    clock,
    logger,
    ...overrides.storageNames,
  });
  const timeouts = {
    connectTimeoutMs: config.GATEWAY_CONNECT_TIMEOUT_MS,
    headersTimeoutMs: config.GATEWAY_TIMEOUT_MS,
    bodyTimeoutMs: config.GATEWAY_TIMEOUT_MS,
  };
  const agent = createGatewayAgent(timeouts);
  // url image items: only from the gateway's host or GATEWAY_URL_HOSTS, over an Agent that refuses internal addresses.
  const links = new LinkPolicy(config.GATEWAY_BASE_URL, config.GATEWAY_URL_HOSTS);
  const linkAgent = createGatewayAgent({ ...timeouts, lookup: links.lookup });
  const profiles = new ModelProfiles(config.MODEL_PROFILES_FILE?.profiles);
  // The API the gateway speaks (docs/gateways.md): one seam behind both clients.
  const dialect = createDialect({
    name: config.GATEWAY_DIALECT,
    baseUrl: config.GATEWAY_BASE_URL,
    deployments: config.AZURE_DEPLOYMENTS,
    apiVersion: config.AZURE_API_VERSION,
  });
  const gateway = new GatewayClient({
    dialect,
    profiles,
    links: { policy: links, dispatcher: linkAgent },
    baseUrl: config.GATEWAY_BASE_URL,
    apiKey: config.GATEWAY_API_KEY,
    dispatcher: agent,
    defaultModel: config.DEFAULT_IMAGE_MODEL,
    deadlineMs: config.GATEWAY_TIMEOUT_MS,
    maxRetries: config.GATEWAY_MAX_RETRIES,
    maxResponseBytes: config.GATEWAY_MAX_RESPONSE_BYTES,
    maxDecodePixels: config.MAX_DECODE_PIXELS,
    taskPollMs: config.GATEWAY_TASK_POLL_MS,
    logger,
    clock,
  });
  // Prompt help (issue 19): the gateway's chat models, on the same Agent; off (and unregistered) without PROMPT_MODEL/VISION_MODEL.
  const promptFeatures = promptFeaturesOf(config);
  const promptHelp = new PromptHelp({
    chat: new ChatClient({
      dialect,
      baseUrl: config.GATEWAY_BASE_URL,
      apiKey: config.GATEWAY_API_KEY,
      dispatcher: agent,
      deadlineMs: config.PROMPT_TIMEOUT_MS,
      logger,
      clock,
    }),
    ...promptModelsOf(config),
    maxTokens: config.PROMPT_MAX_TOKENS,
    logger,
  });
  const queue = new FairQueue({
    concurrency: config.MAX_CONCURRENT_JOBS,
    perMemberRunning: config.MAX_RUNNING_PER_MEMBER,
    perMemberQueued: config.MAX_QUEUED_PER_MEMBER,
    // Redis and PostgreSQL share them between processes, so the running caps hold across all of them.
    slots: storage.slots,
  });
  // Metrics only when they can be scraped (HTTP_PORT); otherwise nothing is observed, and prom-client is not loaded.
  const metrics = config.HTTP_PORT === undefined ? undefined : await createMetrics(() => queue.waiting);
  const quotas = metrics ? observeLedger(storage.quotas, metrics) : storage.quotas;
  const archive = new JobArchive({
    jobs: storage.records('jobs', ArchivedJob),
    pendingEdits: storage.records('pending-edits', PendingEdit),
    confirmations: storage.records('cost-confirmations', ArchivedJob),
    jobTtlMs: config.BUTTON_TTL_HOURS * 3_600_000,
  });
  const discordAgent = createDiscordRestAgent();
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    // Nothing the bot writes pings anyone unless a message says so (the hand-off pings its requester).
    allowedMentions: { parse: [] },
    ...shardPlan(config),
    rest: { api: config.DISCORD_API_URL, agent: discordAgent, ...REST_SWEEPS },
    makeCache: boundedCaches(),
  });
  const audit = new DiscordAuditTrail({ rest: client.rest, logger });
  const settings = new SettingsStore({ records: storage.records('server-settings', ServerSettings), clock });
  // One budget for every image the process holds: edits' references and answers, the images being described and those /show posts again.
  const memory = new MemoryBudget({
    totalBytes: config.MEMORY_BUDGET_BYTES,
    answerBytes: config.GATEWAY_MAX_RESPONSE_BYTES,
    describeBytes: config.DESCRIBE_MEMORY_BYTES,
  });
  const history = new MemberHistory({
    store: storage.history,
    images: new DiscordPostedImages({
      rest: client.rest,
      download: (url, maxBytes, signal) =>
        downloadAttachment(url, { allowedHosts: config.DISCORD_CDN_HOSTS, maxBytes, timeoutMs: 60_000, dispatcher: agent, signal }),
      // /show's images wait in the references' region, as an edit's do.
      memory: { take: (bytes, signal) => memory.takeReferences(bytes, signal), maxBytes: memory.referenceBytes },
      maxFileBytes: config.ATTACHMENT_MAX_BYTES,
      logger,
    }),
    clock,
    keepMs: config.HISTORY_DAYS * 86_400_000,
    settings,
  });
  const jobUsage = storage.records('job-usage', JobUsage);
  const describeUsage = storage.records('describe-usage', DescribeUsage);
  // Moderation strikes (issue 27): one member's refused prompts must not earn the gateway a resource-wide block.
  const moderation = new ModerationGate({
    store: storage.strikes,
    policy: {
      strikes: config.MODERATION_STRIKES,
      windowMs: config.MODERATION_STRIKE_WINDOW_HOURS * 3_600_000,
      pauseMs: config.MODERATION_PAUSE_HOURS * 3_600_000,
    },
    settings,
    audit,
    clock,
    logger,
  });
  // This process's running jobs: those another process claims while this one looks dead are stopped.
  const claims = new ClaimedJobs();
  const images = new ImageService({
    gateway: metrics ? observeGateway(gateway, metrics) : gateway,
    logger,
    clock,
    claims,
    rules: { settings, profiles, moderation, promptHelp: promptFeatures.enhance ? promptHelp : undefined, confirmations: archive },
    holds: { quotas, spend: storage.spend, journal: storage.journal, jobLeaseMs: config.JOB_LEASE_MS, leaseTimers: overrides.leaseTimers },
    produce: {
      queue,
      perMemberQueued: config.MAX_QUEUED_PER_MEMBER,
      download: async (ref, maxBytes, signal) => {
        const bytes = await downloadAttachment(ref.url, {
          allowedHosts: config.DISCORD_CDN_HOSTS,
          maxBytes,
          timeoutMs: 60_000,
          dispatcher: agent,
          signal,
        });
        metrics?.downloaded(bytes.length);
        return bytes;
      },
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
  });
  const describe = new DescribeService({
    help: promptHelp,
    records: storage.records('described-prompts', DescribedPrompts),
    memory,
    usage: describeUsage,
    spend: storage.spend,
    pricesOf: (model) => profiles.of(model).profile.prices,
    totals: storage.usageTotals,
    counts: storage.describeCounts,
    clock,
    download: (ref, maxBytes, signal, admit) =>
      downloadAttachment(ref.url, { allowedHosts: config.DISCORD_CDN_HOSTS, maxBytes, timeoutMs: 60_000, dispatcher: agent, signal, admit }),
    maxAttachmentBytes: config.ATTACHMENT_MAX_BYTES,
    cooldownMs: config.DESCRIBE_COOLDOWN_SECONDS * 1000,
    timeLimitMs: config.PROMPT_TIMEOUT_MS + 60_000,
    maxDecodePixels: config.MAX_DECODE_PIXELS,
    ttlMs: config.BUTTON_TTL_HOURS * 3_600_000,
    settings,
    moderation,
    logger,
  });
  const webhookRest = createInteractionWebhookRest({ api: config.DISCORD_API_URL, agent: discordAgent, ...REST_SWEEPS });
  const deps = {
    pendingDeletes: new PendingDeletes(),
    usage: new UsageReport({ totals: storage.usageTotals, jobs: jobUsage, describes: describeUsage }),
    clock,
    settings,
    audit,
    images,
    models: gateway,
    quotas: new QuotaAdmin({ quotas, spend: storage.spend, settings, audit, logger }),
    moderation,
    archive,
    isAllowedImageUrl: (url: string) => isAllowedAttachmentUrl(url, config.DISCORD_CDN_HOSTS),
    history,
    autocomplete: createImageAutocomplete(gateway, profiles),
    promptFeatures,
    describe,
    createResponder: (interaction: RepliableInteraction, ctx: { logger: Logger; acknowledgement?: Promise<void> | undefined }) =>
      new DiscordResponder({
        interaction,
        client,
        logger: ctx.logger,
        clock,
        acknowledged: ctx.acknowledgement,
        webhookRest,
      }),
  };
  // Each interaction's own channel object (discord.js keeps only its cache's): threads and commands-only servers.
  const channels = new InteractionChannels();
  client.on(Events.Raw, channels.onRaw);
  const route = createInteractionRouter({ commands: createCommands(deps), components: createComponents(deps), logger, channels });
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  client.on(Events.InteractionCreate, (interaction) => {
    metrics?.interaction(interactionKind(interaction));
    const work = stopping ? refuseWhileStopping(interaction) : route(interaction);
    inFlight.add(work);
    // Not awaited: route() and refuseWhileStopping() answer every failure themselves and never reject; stop() awaits inFlight.
    void work.finally(() => {
      inFlight.delete(work);
      if ('token' in interaction) forgetInteractionHandlers([client.rest, webhookRest], interaction);
    });
  });

  try {
    await loginWithin(client, { token: config.DISCORD_TOKEN, apiUrl: config.DISCORD_API_URL, timeoutMs: config.DISCORD_LOGIN_TIMEOUT_MS });
    // Set from the READY payload, so always there once login has resolved.
    if (!client.application) throw new Error('Discord sent no application with READY');
    await syncCommands({
      rest: client.rest,
      applicationId: client.application.id,
      guildId: config.COMMANDS_GUILD_ID,
      definitions: commandDefinitions(promptFeatures),
      logger,
    });
  } catch (err) {
    // destroy, not close: a Discord that never answers would keep close() waiting for its request.
    await Promise.allSettled([client.destroy(), agent.close(), linkAgent.close(), discordAgent.destroy(), storage.close()]);
    stopSweepers(webhookRest);
    throw err;
  }
  // Jobs of processes that died (this one before a restart included): refunded and their members told.
  const abandoned = new AbandonedJobs({
    claims,
    journal: storage.journal,
    quotas: storage.quotas,
    spend: storage.spend,
    archive,
    notifier: new DiscordAbandonedNotifier({ rest: client.rest, webhookRest, clock, logger }),
    leaseMs: config.JOB_LEASE_MS,
    logger,
  });
  await abandoned.start();
  logger.info({ user: client.user?.tag, guilds: client.guilds.cache.size, shards: client.ws.shards.map((shard) => shard.id) }, 'bot ready');
  const gatewayCheck = new GatewayCheck({
    probe: (timeoutMs) => gateway.probeModels(timeoutMs),
    host: new URL(config.GATEWAY_BASE_URL).host,
    defaultModel: () => gateway.defaultModel,
    configured: config.DEFAULT_IMAGE_MODEL,
    timeoutMs: config.GATEWAY_CONNECT_TIMEOUT_MS,
    retryIntervalMs: config.GATEWAY_CHECK_INTERVAL_MS,
    // Readiness asks for a catalogue fetched within the last interval, so the check keeps going while it is served.
    keepChecking: metrics !== undefined,
    logger,
  });
  await gatewayCheck.start();
  let health: HealthServer | undefined;

  const bot: RunningBot = {
    client,
    logger,
    rests: [client.rest, webhookRest],
    get httpPort() {
      return health?.port;
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      logger.info({ inFlight: inFlight.size }, 'shutting down');
      gatewayCheck.stop();
      await health?.close();
      // One deadline for all of it: running jobs are cancelled (and refunded) when it passes, and deliveries still
      // under way are not waited for beyond it.
      const deadline = clock.now() + config.SHUTDOWN_GRACE_MS;
      await queue.close(config.SHUTDOWN_GRACE_MS);
      const unfinished = await settledWithin([...inFlight], Math.max(0, deadline - clock.now()));
      if (unfinished > 0) logger.warn({ unfinished }, 'shutdown grace over; stopping with interactions still in progress');
      await abandoned.stop();
      // With every job settled, the journal has nothing left for another process to claim; otherwise it stays, and
      // the jobs still open are claimed (refunded, their members told) once this process's journal lapses.
      if (unfinished === 0) await storage.journal.retire().catch((err: unknown) => logger.warn({ err }, 'could not leave the job journal'));
      await client.destroy();
      stopSweepers(webhookRest);
      // close() would wait for requests still open; past the deadline they are cut off.
      const agents = unfinished > 0 ? [agent.destroy(), linkAgent.destroy(), discordAgent.destroy()] : [agent.close(), linkAgent.close(), discordAgent.close()];
      await Promise.allSettled([...agents, storage.close()]);
      logger.info('shut down');
    },
  };
  if (metrics && config.HTTP_PORT !== undefined) {
    const checks = [
      { name: 'discord', check: () => client.ws.status === Status.Ready },
      { name: 'store', check: () => storage.ping(READINESS_TIMEOUT_MS).then(() => true) },
      {
        name: 'gateway',
        check: () => catalogueIsFresh(gateway.catalogueFetchedAt(), clock.now(), config.GATEWAY_CHECK_INTERVAL_MS, config.GATEWAY_CONNECT_TIMEOUT_MS),
      },
    ];
    health = await startOperations({ host: config.HTTP_HOST, port: config.HTTP_PORT, metrics, checks, logger }).catch(async (err: unknown) => {
      await bot.stop();
      throw err;
    });
  }
  return bot;
}

/** The Prometheus metrics, prom-client imported only now (docs/benchmarks.md, "Light at rest"). */
async function createMetrics(queueDepth: () => number): Promise<BotMetrics> {
  const { BotMetrics } = await import('./ops/metrics.js');
  return new BotMetrics({ queueDepth });
}

async function refuseWhileStopping(interaction: Interaction): Promise<void> {
  if (!interaction.isRepliable()) return;
  await interaction.reply({ content: 'The bot is restarting. Please try again in a minute.', flags: MessageFlags.Ephemeral }).catch(() => undefined);
}

/**
 * Runs the bot until SIGTERM/SIGINT, an unhandled rejection or an uncaught exception, then shuts down gracefully.
 * Used by src/cli.ts (`npm start`).
 */
export function runBot(config: Config): Promise<void> {
  return runUntilStopped(() => startBot(config));
}

/** Waits for `work` to settle for up to `ms`; resolves with how many had not settled by then. */
async function settledWithin(work: readonly Promise<unknown>[], ms: number): Promise<number> {
  let settled = 0;
  const all = Promise.allSettled(work.map((w) => w.finally(() => (settled += 1))));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
  return work.length - settled;
}

/** What Client.destroy does for the client's own REST: stop its (unref'd) cache sweepers. */
function stopSweepers(rest: REST): void {
  rest.clearHashSweeper();
  rest.clearHandlerSweeper();
}
