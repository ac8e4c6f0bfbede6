/**
 * The use case: one member's image job from acceptance to delivery.
 * check the request and the declared references → reserve quota → queue fairly → download references and check
 * their bytes → call the gateway → fit files → deliver → commit;
 * any failure before the commit refunds the reservation, exactly once. From reserve until it settles, the job renews
 * its reservation's lease.
 */
import type { Logger } from 'pino';
import { UserFacingError } from '../errors.js';
import { toUserFacingError } from './error-mapping.js';
import type { FairQueue } from './fair-queue.js';
import { deliveryFiles, imagesIn } from './delivery-files.js';
import { checkedHeader } from './decode-guard.js';
import { SvgRenderer } from './svg-render.js';
import { unknownAnswerBytes } from './answer-bound.js';
import {
  DEFAULT_MAX_DECODE_PIXELS,
  sniffImageFormat,
  checkDeclaredImages,
  declaredBytes,
  unsizedImageBytes,
  validateEditRequest,
  validateGenerateRequest,
} from './image-rules.js';
import { checkMask, checkSquare } from './mask-check.js';
import { ModelProfiles, type ModelProfile } from './model-profiles.js';
import { checkAgainstProfile } from './profile-rules.js';
import { actionRequest, actionsOf, isCanvasTransform } from './result-actions.js';
import { outpaint } from './outpaint.js';
import { fitPreview } from './fit-preview.js';
import type { AuditTrail } from './audit-trail.js';
import type { ModerationGate } from './moderation-gate.js';
import { chatCostOf, estimateChatCost } from './chat-cost.js';
import { costOf, roundUsd, type JobCost, type ModelPrices } from './cost.js';
import { estimateCost } from './cost-estimate.js';
import { isoDate } from './periods.js';
import type { UsageTotals } from './usage-totals.js';
import { applySettings, DEFAULT_SETTINGS, postsSpoilers, type ServerSettings } from './server-settings.js';
import type { SettingsStore } from './settings-store.js';
import type { AttachmentRef, ImageJob, Posted, Responder } from './jobs.js';
import type {
  AnswerSink,
  Clock,
  EditRequest,
  GatewayCallOptions,
  GenerateRequest,
  ImageGateway,
  ImageResult,
  JobJournal,
  QuotaLedger,
  QuotaStatus,
  SpendLedger,
  SpendStatus,
} from './ports.js';
import { systemClock } from './ports.js';
import type { JobArchive } from './job-archive.js';
import type { MemberHistory } from './member-history.js';
import { journalEntryOf } from './job-journal-entry.js';
import { JobClaimedError, type ClaimedJobs } from './claimed-jobs.js';
import { JobProgressReporter } from './job-progress.js';
import { keepLease, type Lease, type LeaseTimers, systemLeaseTimers } from './lease-renewal.js';
import { type JobMemory, MemoryBudget } from './memory-budget.js';
import type { StreamedDelivery } from './streaming/streamed-delivery.js';
import type { UsageLog } from './usage-log.js';
import type { PromptHelp, PromptHelpUsage } from './prompt-help.js';
import { enhancedRequest, type EnhancementOutcome } from './enhance-step.js';
import { jobOutcomeOf, NO_JOB_METRICS, type JobMetrics, type JobOutcome } from './job-metrics.js';

/** Options for {@link ImageService}. */
export interface ImageServiceOptions {
  gateway: ImageGateway;
  quotas: QuotaLedger;
  queue: FairQueue;
  /** Downloads one member attachment (host allow-list applied), reading no more than `maxBytes`. */
  download: (ref: AttachmentRef, maxBytes: number, signal?: AbortSignal) => Promise<Buffer>;
  /**
   * ATTACHMENT_MAX_BYTES: a reference declared larger is refused before anything is fetched, and one of no declared
   * size is read no further than this (or its share of the memory budget, if less). @default 52428799
   */
  maxAttachmentBytes?: number | undefined;
  logger: Logger;
  /** Minimum time between two progress edits. @default 3000 */
  progressIntervalMs?: number | undefined;
  /** Partial images to ask for when streaming; 0 turns streaming off. @default 1 */
  partialImages?: number | undefined;
  /** Per-member waiting limit, named in the queue-full message. @default 10 */
  perMemberQueued?: number | undefined;
  clock?: Clock | undefined;
  /**
   * The streamed delivery (answer Buffers, uploads while the answer arrives); without it each
   * answer is read by the gateway on its own and posted once it is complete (STREAM_DELIVERIES=false).
   */
  streaming?: StreamedDelivery | undefined;
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
  /** Records what each job that reached the gateway cost (usage-log.ts); without it, nothing is recorded. */
  usage?: Pick<UsageLog, 'record'> | undefined;
  /** Remembers delivered jobs for their buttons; without it, buttons find nothing. */
  archive?: Pick<JobArchive, 'remember'> | undefined;
  /** Members' histories (/history, /show); without it, delivered jobs are not listed. */
  history?: Pick<MemberHistory, 'record'> | undefined;
  /** The ledger's lease (JOB_LEASE_MS); an accepted job renews its reservation every third of it. @default 60000 */
  jobLeaseMs?: number | undefined;
  /** @default the global timers */
  leaseTimers?: LeaseTimers | undefined;
  /**
   * Where accepted jobs are recorded until they settle, so that another process can tell their members if this one
   * dies (see abandoned-jobs.ts); without it, such a member is not told (their reservation still lapses).
   */
  journal?: JobJournal | undefined;
  /** Jobs another process claimed while this one looked dead: stopped where they are (claimed-jobs.ts). */
  claims?: ClaimedJobs | undefined;
  /** What each model accepts (MODEL_PROFILES_FILE over the built-in profiles). @default the built-in profiles */
  profiles?: ModelProfiles | undefined;
  /** Servers' settings (defaults, allowed models, counts, channels, previews); without it, every server has the defaults. */
  settings?: Pick<SettingsStore, 'get'> | undefined;
  /** Servers' daily usage totals, which /usage reads (usage-totals.ts); without them, nothing is counted. */
  totals?: Pick<UsageTotals, 'add'> | undefined;
  /** Where a server's audit channel is told of each job (audit-trail.ts); without it, nowhere. */
  audit?: Pick<AuditTrail, 'job'> | undefined;
  /** How jobs end, wait and upload, for the operator's metrics. @default observes nothing */
  metrics?: JobMetrics | undefined;
  /** The money limits (estimate held, actual cost committed); without them, no money limit applies. */
  spend?: SpendLedger | undefined;
  /** Where a request waits for its member to confirm its cost; without it, requests run unasked. */
  confirmations?: Pick<JobArchive, 'stashConfirmation'> | undefined;
  /** Prompt help's enhance (PROMPT_MODEL); without it, `enhance` is ignored with a notice. */
  promptHelp?: Pick<PromptHelp, 'enhance' | 'enhanceCall'> | undefined;
  /** Moderation strikes (moderation-gate.ts): paused members are refused first, moderation refusals count; without it, neither. */
  moderation?: Pick<ModerationGate, 'check' | 'counted'> | undefined;
}

/** What a delivered job posted. */
/** What the job's bookkeeping needs of the gateway's answer: all but the images' bytes (their count instead). */
type Answer = Omit<ImageResult, 'images'> & { images: number };

/** A job's images as posted: where, how many count (an SVG original does not), how many files, and the answer. */
interface Sent {
  posted: Posted;
  images: number;
  files: number;
  answer: Answer;
}

interface Settled {
  delivered: number;
  model: string;
  cost?: JobCost | undefined;
  messageId?: string | undefined;
}

/** A checked request, with the model it goes to and that model's profile. */
interface Prepared {
  request: GenerateRequest;
  model: string;
  profile: ModelProfile;
  /** The server lets previews (streamed partial images) be asked for. */
  previews: boolean;
  /** The server posts results in this channel as spoilers. */
  spoiler: boolean;
  /**
   * The estimated cost in USD: the images (cost-estimate.ts) and the enhance call asked for (chat-cost.ts); undefined
   * when the prices of either model are not known (`unpricedModel`).
   */
  estimate: number | undefined;
  /** The images' part of `estimate` (what a delivery without a reported cost is charged). */
  imageEstimate: number | undefined;
  /** The enhance call's estimate (0 when none is asked for), charged when its answer tells no cost. */
  enhanceEstimate: number;
  /** The model whose prices are missing when `estimate` is undefined. */
  unpricedModel: string;
  /** An edit's references and fields, with what an action on a result asks for (its fidelity) filled in. */
  edit: ImageJob['edit'];
  /** The server allows prompt help (enhance). */
  promptHelp: boolean;
}

/** What a job made on the way, which a failure still counts: images not posted, an enhance call that answered. */
interface Made {
  images: boolean;
  promptHelp?: { calls: number; usd: number } | undefined;
}

/** What a job holds in the ledger: its images always, and its estimated cost where a money limit applies. */
interface Holds {
  spend: boolean;
}

/** Runs image jobs; see the module comment for the flow. */
export class ImageService {
  private readonly options: ImageServiceOptions;
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly memory: MemoryBudget;
  private readonly metrics: JobMetrics;
  private readonly maxAttachmentBytes: number;
  private readonly svg: SvgRenderer;
  private readonly maxDecodePixels: number;

  constructor(options: ImageServiceOptions) {
    this.options = options;
    this.log = options.logger.child({ module: 'image-service' });
    this.clock = options.clock ?? systemClock;
    this.memory = options.memory ?? new MemoryBudget();
    this.metrics = options.metrics ?? NO_JOB_METRICS;
    this.maxAttachmentBytes = options.maxAttachmentBytes ?? 52_428_799;
    this.svg = options.svg ?? new SvgRenderer();
    this.maxDecodePixels = options.maxDecodePixels ?? DEFAULT_MAX_DECODE_PIXELS;
  }

  /**
   * Runs a job to the end. Member-facing failures are thrown as {@link UserFacingError} after the quota was
   * refunded; the caller (the router's error boundary) answers them.
   */
  async run(job: ImageJob, responder: Responder): Promise<void> {
    const log = this.log.child({ jobId: job.id, kind: job.kind });
    let settings: ServerSettings | undefined;
    let prepared: Prepared | undefined;
    // What the job made before it failed, if it failed: images not posted, or an enhance call (each leaves a usage record).
    const made: Made = { images: false };
    try {
      settings = await this.settingsOf(job);
      // A member paused by their moderation strikes is refused before anything is checked, reserved or sent.
      await this.options.moderation?.check(job.subject);
      prepared = this.preflight(job, settings);
      const count = prepared.request.n ?? 1;
      if (await this.askedToConfirm(job, settings, prepared, responder)) return;
      // Journalled before the reservation, so a process that dies in between leaves a member to tell.
      await this.options.journal?.open(job.id, journalEntryOf(job, responder.replyAddress));
      this.options.claims?.watch(job.id);
      let settled: Settled;
      try {
        const holds = await this.reserve(job, count, prepared);
        settled = await this.runReserved(job, prepared, holds, responder, log, made);
      } finally {
        await this.options.journal?.close(job.id).catch((err: unknown) => {
          log.warn({ err }, 'could not close the job in the journal');
        });
      }
      this.options.claims?.forget(job.id);
      this.metrics.jobSettled('delivered');
      await this.audit(job, settings, prepared, { outcome: 'delivered', reachedGateway: true, promptHelp: made.promptHelp, ...settled });
    } catch (err) {
      const mapped = toUserFacingError(err, () => this.options.gateway.cachedModels().map((m) => m.id));
      const outcome = jobOutcomeOf(mapped);
      this.metrics.jobSettled(outcome);
      const reason = mapped instanceof UserFacingError ? mapped.identifier : undefined;
      const reachedGateway = made.images || made.promptHelp !== undefined;
      await this.audit(job, settings, prepared, { outcome, reason, delivered: 0, reachedGateway, promptHelp: made.promptHelp });
      // The member only hears "not available right now"; the operator must fix the key or the balance.
      if (mapped instanceof UserFacingError && mapped.identifier === 'gateway.unavailable')
        log.error({ err }, 'gateway account problem: check the API key and balance');
      // Claimed by another process: refunded and its member told there; nothing more is said here.
      if (this.options.claims?.claimed(job.id) === true) {
        this.options.claims.forget(job.id);
        log.warn('job stopped: another process claimed it');
        throw new JobClaimedError(job.id);
      }
      this.options.claims?.forget(job.id);
      throw mapped;
    }
  }

  /**
   * Posts `ref`, one image of an earlier result, as a card of its own with the actions on it (U1…): no gateway call
   * and nothing charged. It is downloaded like a reference (host allow-list, declared size, the memory budget).
   */
  async present(job: ImageJob, ref: AttachmentRef, responder: Responder): Promise<void> {
    // Through the member's line like every other action, so their running and queued limits hold for U1 too.
    const ticket = this.options.queue.submit(job.subject.userId, () => this.presentNow(job, ref, responder));
    if (!ticket.accepted) {
      throw ticket.reason === 'closed'
        ? new UserFacingError('job.cancelled')
        : new UserFacingError('queue.full', { limit: this.options.perMemberQueued ?? 10 });
    }
    await ticket.result;
  }

  private async presentNow(job: ImageJob, ref: AttachmentRef, responder: Responder): Promise<void> {
    const log = this.log.child({ jobId: job.id, kind: 'present' });
    const memory = this.memory.forJob(0);
    try {
      await memory.takeReferences(declaredBytes([ref], undefined, this.maxAttachmentBytes));
      const bytes = await this.options.download(ref, ref.size ?? this.maxAttachmentBytes);
      const format = sniffImageFormat(bytes);
      const meta = format ? await checkedHeader(bytes, this.maxDecodePixels, ref.filename) : undefined;
      if (!format || !meta) throw new UserFacingError('input.attachmentInvalid', { param: ref.filename });
      const model = job.request.model ?? this.defaultModel();
      const { profile } = (this.options.profiles ?? DEFAULT_PROFILES).of(model);
      const files = [{ bytes, format, width: meta.width, height: meta.height }];
      const { messageIds } = await responder.deliver({ job, model, files, notices: [], actions: actionsOf(profile, files[0]) });
      await this.options.archive?.remember(job, messageIds).catch((err: unknown) => log.warn({ err }, 'could not store job for its buttons'));
      log.info('image presented as its own card');
    } catch (err) {
      throw toUserFacingError(err, () => this.options.gateway.cachedModels().map((m) => m.id));
    } finally {
      memory.release();
    }
  }

  /**
   * The checks that need nothing fetched: the server's settings (channel rules, and for members the allowed models
   * and most images; its defaults filled in), the request, the model's own rules (its profile), and what Discord
   * declares about the reference images (count, size, content type, and together no more than the memory budget's
   * references may be). A request refused here, or by the quota or the queue after it, downloads nothing.
   */
  private preflight(job: ImageJob, settings: ServerSettings): Prepared {
    const place = {
      channelId: job.origin.parentChannelId ?? job.origin.channelId,
      parentUnknown: job.origin.parentChannelId === null,
      manager: job.origin.manager === true,
      ageRestricted: job.origin.ageRestricted === true,
      roleIds: job.subject.roleIds,
    };
    const asked = validateGenerateRequest(applySettings(job.request, settings, place));
    const model = asked.model ?? this.defaultModel();
    const { profile } = (this.options.profiles ?? DEFAULT_PROFILES).of(model);
    // An action on a result asks for the size (and fidelity) its plan needs, from the image's declared dimensions.
    const action = job.edit?.transform && actionRequest(job.edit.transform, declaredDimensions(job.edit.images[0]), profile, model);
    const request = action ? { ...asked, size: action.size } : asked;
    const edit = action && job.edit ? { ...job.edit, inputFidelity: action.inputFidelity } : job.edit;
    checkAgainstProfile(request, model, profile, edit);
    // The ✨ Enhance button asks for nothing but the rewrite: where prompt help is off, it is refused, not run as written.
    if (job.enhance === 'required' && !(settings.promptHelp && this.options.promptHelp)) throw new UserFacingError('promptHelp.off');
    if (edit) checkDeclaredImages(edit.images, edit.mask, this.maxAttachmentBytes, this.memory.referenceBytes);
    const spoiler = postsSpoilers(settings, place.channelId, place.parentUnknown);
    const partialImages = this.partialImagesFor({ profile, request, previews: settings.previews, spoiler });
    // Enhance is metered like the images: its call's estimate is held with theirs, and the images' estimate counts
    // the rewritten prompt at its longest.
    const enhanceCall = job.enhance && settings.promptHelp ? this.options.promptHelp?.enhanceCall(request.prompt) : undefined;
    const promptChars = enhanceCall ? enhanceCall.maxOutputTokens * 4 : undefined;
    const imageEstimate = estimateCost(request, profile.prices, edit, { partialImages, promptChars });
    const enhanceEstimate = enhanceCall ? estimateChatCost(enhanceCall, this.pricesOf(enhanceCall.model)) : 0;
    return {
      request,
      model,
      profile,
      previews: settings.previews,
      spoiler,
      estimate: imageEstimate === undefined || enhanceEstimate === undefined ? undefined : roundUsd(imageEstimate + enhanceEstimate),
      imageEstimate,
      enhanceEstimate: enhanceEstimate ?? 0,
      unpricedModel: imageEstimate === undefined || !enhanceCall ? model : enhanceCall.model,
      edit,
      promptHelp: settings.promptHelp,
    };
  }

  /** A model's prices (MODEL_PROFILES_FILE over the built-in ones). */
  private pricesOf(model: string): ModelPrices | undefined {
    return (this.options.profiles ?? DEFAULT_PROFILES).of(model).profile.prices;
  }

  /** What the enhance call of a job cost, when it answered (0 when it did not run or did not answer). */
  private enhanceCostOf(enhancement: EnhancementOutcome, prepared: Prepared): JobCost | undefined {
    const used = enhancement.used;
    return used && chatCostOf(used, this.pricesOf(used.model), prepared.enhanceEstimate);
  }

  /**
   * Asks the member to confirm a request whose estimate is above the server's threshold (once: a confirmed job is
   * not asked again), and returns true when it did: the job then ends here, holding nothing. A request that would
   * not fit the member's quota or money limit anyway is refused now instead of asked about.
   */
  private async askedToConfirm(job: ImageJob, settings: ServerSettings, prepared: Prepared, responder: Responder): Promise<boolean> {
    const threshold = settings.confirmAboveUsd;
    const { estimate } = prepared;
    if (job.confirmed === true || threshold === undefined || estimate === undefined || estimate <= threshold || !responder.confirmCost) return false;
    const count = prepared.request.n ?? 1;
    const [quota, spend] = await Promise.all([this.options.quotas.status(job.subject), this.options.spend?.status(job.subject)]);
    if (quota.remaining < count) throw quotaError(quota, count);
    if (spend && spend.remaining < estimate) throw spendError(spend, estimate);
    const id = await this.options.confirmations?.stashConfirmation(job);
    if (id === undefined) return false;
    await responder.confirmCost({ id, job, estimateUsd: estimate, thresholdUsd: threshold });
    this.log.info({ jobId: job.id, estimateUsd: estimate, thresholdUsd: threshold }, 'cost confirmation asked');
    return true;
  }

  /** The settings of the server the job is accounted to (the defaults outside servers). */
  private async settingsOf(job: ImageJob): Promise<ServerSettings> {
    if (job.subject.guildId === null) return DEFAULT_SETTINGS;
    return (await this.options.settings?.get(job.subject.guildId)) ?? DEFAULT_SETTINGS;
  }

  /**
   * Counts the settled job in its server's usage totals (the /usage reports) and tells the server's audit channel,
   * when it has one; neither ever fails the job.
   */
  private async audit(
    job: ImageJob,
    settings: ServerSettings | undefined,
    prepared: Prepared | undefined,
    end: {
      outcome: JobOutcome;
      reason?: string | undefined;
      delivered: number;
      model?: string | undefined;
      cost?: JobCost | undefined;
      messageId?: string | undefined;
      reachedGateway: boolean;
      promptHelp?: { calls: number; usd: number } | undefined;
    },
  ): Promise<void> {
    const auditChannelId = settings?.auditChannelId;
    const guildId = job.subject.guildId;
    if (guildId === null) return;
    const request = prepared?.request ?? job.request;
    const model = end.model ?? prepared?.model ?? request.model ?? this.defaultModel();
    await this.options.totals
      ?.add(guildId, isoDate(this.clock.now()), { jobId: job.id, userId: job.subject.userId, roleIds: job.subject.roleIds, ...end, model })
      .catch((err: unknown) => this.log.warn({ err, jobId: job.id }, 'could not count the job in the usage totals'));
    if (auditChannelId === undefined || !this.options.audit) return;
    await this.options.audit.job({
      guildId,
      auditChannelId,
      job,
      size: request.size,
      quality: request.quality,
      count: request.n ?? 1,
      ...end,
      model,
    });
  }

  /** The model a request without one goes to: the gateway's default in use now. */
  private defaultModel(): string {
    return this.options.gateway.cachedModels().find((m) => m.default === true)?.id ?? 'the default model';
  }

  /**
   * The request as the gateway gets it, built when the job's turn has come: for an edit, the references are
   * downloaded now (just before the gateway call, so queued jobs hold no images), once their declared bytes fit in
   * the memory budget (each read no further than declared, or than its share without a declared size), and their bytes checked, the mask check included. This
   * is the one validation: the gateway sends what it is given (the ImageGateway contract).
   */
  private async complete({ request, model, profile, edit }: Prepared, memory: JobMemory, signal: AbortSignal): Promise<GenerateRequest | EditRequest> {
    if (!edit) return request;
    const { images, mask, inputFidelity, transform } = edit;
    const unsized = unsizedImageBytes(this.maxAttachmentBytes, this.memory.referenceBytes);
    await this.takeReferences(memory, declaredBytes(images, mask, unsized), signal);
    // An embed's or a gallery's image has no declared size: it is read no further than its share (image-rules.ts).
    const [imageBytes, maskBytes] = await Promise.all([
      Promise.all(images.map((ref) => this.options.download(ref, ref.size ?? unsized, signal))),
      mask ? this.options.download(mask, mask.size ?? unsized, signal) : Promise.resolve(undefined),
    ]);
    // Every reference's header is read before it is sent or decoded: one declaring more than MAX_DECODE_PIXELS is refused.
    await Promise.all([
      ...imageBytes.map((bytes, i) => checkedHeader(bytes, this.maxDecodePixels, images[i]?.filename)),
      ...(maskBytes && mask ? [checkedHeader(maskBytes, this.maxDecodePixels, mask.filename)] : []),
    ]);
    // Zoom out, Pan and Vary region: the canvas and the mask are built from the image as it came.
    const canvas = isCanvasTransform(transform) && imageBytes[0] ? await outpaint(imageBytes[0], transform, profile, this.maxDecodePixels) : undefined;
    const sent = validateEditRequest({
      ...request,
      ...(canvas ? { size: `${canvas.size.width}x${canvas.size.height}` } : {}),
      images: canvas ? [{ bytes: canvas.image, filename: 'canvas.png' }] : imageBytes.map((bytes, i) => ({ bytes, filename: images[i]?.filename })),
      mask: canvas ? { bytes: canvas.mask, filename: 'mask.png' } : maskBytes && mask ? { bytes: maskBytes, filename: mask.filename } : undefined,
      inputFidelity,
    });
    await checkMask(sent);
    if (profile.edits?.squarePng) await checkSquare(sent, model);
    return sent;
  }

  /**
   * Room for an edit's references, waited for in its queue slot (and cluster slot) at most referenceWaitMs, and no
   * longer than the job lives (cancelled, claimed or closed): a job that cannot get room in time gives its slots back.
   */
  private async takeReferences(memory: JobMemory, bytes: number, signal: AbortSignal): Promise<void> {
    const limit = AbortSignal.timeout(this.options.referenceWaitMs ?? 60_000);
    try {
      await memory.takeReferences(bytes, AbortSignal.any([signal, limit]));
    } catch (err) {
      if (limit.aborted && !signal.aborted) throw new UserFacingError('memory.busy', {}, { cause: err });
      throw err;
    }
  }

  /**
   * Reserves the job's images, then its estimated cost where a money limit applies (refused when a limit applies and
   * the model's prices are not known); a refusal of the cost gives the images back.
   */
  private async reserve(job: ImageJob, count: number, { estimate, unpricedModel: model }: Prepared): Promise<Holds> {
    const outcome = await this.options.quotas.reserve(job.subject, job.id, count);
    if (!outcome.ok) throw quotaError(outcome.status, count);
    const spend = this.options.spend;
    if (!spend) return { spend: false };
    try {
      if (estimate === undefined) {
        const status = await spend.status(job.subject);
        if (status) throw new UserFacingError('spend.unpriced', { model });
        return { spend: false };
      }
      const held = await spend.reserve(job.subject, job.id, estimate);
      if (!held.ok) throw spendError(held.status, estimate);
      return { spend: held.held };
    } catch (err) {
      await this.refund(job, { spend: false }, this.log.child({ jobId: job.id }));
      throw err;
    }
  }

  /** Renews the job's reservations until the lease is stopped (before the job settles). */
  private keepLease(job: ImageJob, holds: Holds, log: Logger): Lease {
    return keepLease({
      renew: async () => {
        await Promise.all([this.options.quotas.renew(job.id), holds.spend ? this.options.spend?.renew(job.id) : undefined]);
      },
      intervalMs: (this.options.jobLeaseMs ?? 60_000) / 3,
      timers: this.options.leaseTimers ?? systemLeaseTimers,
      log,
    });
  }

  private async runReserved(asked: ImageJob, checked: Prepared, holds: Holds, responder: Responder, log: Logger, made: Made): Promise<Settled> {
    // Renewed from here until the job settles; the finally below stops it before any refund.
    const lease = this.keepLease(asked, holds, log);
    // Enhance runs once the request passed every check and its images are reserved: a request that would be refused
    // never reaches the chat model. It never fails the job (enhance-step.ts).
    const { job, prepared, enhancement } = await enhancedRequest(asked, checked, this.options.promptHelp);
    // The enhance call that answered is counted (usage totals, its record) and charged, whatever becomes of the job.
    const enhanceCost = this.enhanceCostOf(enhancement, prepared);
    const promptHelpUsed = enhancement.used && { ...enhancement.used, cost: enhanceCost };
    if (enhancement.used) made.promptHelp = { calls: 1, usd: enhanceCost?.usd ?? 0 };
    const { request } = prepared;
    const answered: { answer?: Answer } = {};
    let sent: Sent | undefined;
    try {
      sent = await this.generateAndPost(job, prepared, enhancement, responder, log, answered);
      const { answer, images, posted } = sent;
      await lease.stop();
      const cost = costOf(answer.usage, prepared.profile.prices, answer.images);
      const enhanceUsd = enhanceCost?.usd ?? 0;
      await this.commit(job, images, holds.spend ? roundUsd((cost?.usd ?? prepared.imageEstimate ?? 0) + enhanceUsd) : undefined, log);
      await this.recordUsage({ ...job, request }, answer, images, cost, log, promptHelpUsed);
      await this.options.archive?.remember(job, posted.messageIds).catch((err: unknown) => log.warn({ err }, 'could not store job for its buttons'));
      await this.options.history
        ?.record({ ...job, request }, { model: answer.model, images, posted })
        .catch((err: unknown) => log.warn({ err }, 'could not add the job to its member history'));
      log.info({ images: sent.files, requestId: answer.requestId, usage: answer.usage }, 'image job delivered');
      return { delivered: images, model: answer.model, cost, messageId: posted.messageIds[0] };
    } catch (err) {
      // "You were not charged" holds for the images; the enhance call that ran is charged, and the member is told.
      if (holds.spend && enhanceCost && enhanceCost.usd > 0 && err instanceof UserFacingError) err.context.promptHelpUsd ??= enhanceCost.usd;
      throw err;
    } finally {
      await lease.stop();
      const { answer } = answered;
      if (!sent) {
        // No images charged; an enhance call that answered was made for the member, and is (issue 29).
        await this.refund(job, holds, log, enhanceCost?.usd);
        // Images were made but not posted: the member is not charged, the operator was.
        if (answer) {
          made.images = true;
          await this.recordUsage({ ...job, request }, answer, 0, costOf(answer.usage, prepared.profile.prices, answer.images), log, promptHelpUsed);
        } else if (promptHelpUsed) {
          // No image answer: the record holds the enhance call alone (the CSV lists it).
          await this.recordUsage({ ...job, request }, { model: prepared.model }, 0, undefined, log, promptHelpUsed);
        }
      }
    }
  }

  /**
   * Generates the job's images and posts them: the only place their bytes are held, so they, and their room in the
   * memory budget, are given back as soon as they are posted (or could not be), not after the job's bookkeeping.
   * `answered` gets what the bookkeeping needs of the gateway's answer as soon as there is one.
   */
  private async generateAndPost(
    job: ImageJob,
    prepared: Prepared,
    enhancement: EnhancementOutcome,
    responder: Responder,
    log: Logger,
    answered: { answer?: Answer },
  ): Promise<Sent> {
    const { request } = prepared;
    const expectedImages = request.n ?? 1;
    let delivered = false;
    const progress = new JobProgressReporter((p) => responder.progress(p), { intervalMs: this.options.progressIntervalMs ?? 3_000, log });
    // The upload begins with the first image bytes, after the last progress edit has landed.
    // An SVG is posted as a PNG rendering beside it (displayable.ts), and spoilers are named when posted, so neither
    // is uploaded as it arrives.
    const stream =
      request.outputFormat === 'svg' || prepared.spoiler
        ? undefined
        : this.options.streaming?.forJob({
            openUpload: () => responder.openUpload?.(job, { expectedImages, after: progress.stop() }),
            maxFileBytes: responder.maxFileBytes,
          });
    const memory = this.memory.forJob(unknownAnswerBytes(request, this.partialImagesFor(prepared)));
    try {
      const result = await this.queueAndGenerate(job, prepared, responder, progress, { sink: stream, memory });
      const { images: generated, ...rest } = result;
      const answer = { ...rest, images: generated.length };
      answered.answer = answer;
      // An SVG's render is admitted to the job's memory (it takes the answer's room again, larger) before it starts.
      const svg = { renderer: this.svg, admit: (bytes: number) => memory.admit(bytes), member: job.subject.userId };
      const { files, notices } = await deliveryFiles(result, responder.maxFileBytes, request, { svg, maxPixels: this.maxDecodePixels });
      // A job another process claimed meanwhile is not delivered (nor charged: not sent, it is refunded).
      this.options.claims?.check(job.id);
      const upload = await stream?.settle(files);
      const posted = await responder.deliver(
        {
          job,
          model: result.model,
          files,
          notices: [...enhancement.notices, ...notices],
          spoiler: prepared.spoiler,
          actions: actionsOf(prepared.profile, files[0]),
          prompts: enhancement.prompts,
          enhanceable: this.offersEnhance(prepared, enhancement),
        },
        upload,
      );
      delivered = true;
      this.metrics.uploaded(files.reduce((sum, file) => sum + file.bytes.length, 0));
      return { posted, images: imagesIn(files), files: files.length, answer };
    } finally {
      // The gateway call has settled (the queue settles a ticket only then) and delivery is over or failed.
      await stream?.close(delivered);
      memory.release();
    }
  }

  /** Records what the job cost (`job` with the request as it was sent: the server's defaults filled in). */
  private async recordUsage(
    job: ImageJob,
    result: Pick<Answer, 'model' | 'sizeFallback' | 'usage' | 'requestId'>,
    delivered: number,
    cost: JobCost | undefined,
    log: Logger,
    promptHelp: (PromptHelpUsage & { cost?: JobCost | undefined }) | undefined,
  ): Promise<void> {
    await this.options.usage
      ?.record(job, result, delivered, this.clock.now(), cost, promptHelp)
      .catch((err: unknown) => log.warn({ err }, 'could not record the job usage'));
  }

  /** Queues the gateway call and reports progress until it ends. */
  private async queueAndGenerate(
    job: ImageJob,
    prepared: Prepared,
    responder: Responder,
    progress: JobProgressReporter,
    { sink, memory }: { sink: AnswerSink | undefined; memory: JobMemory },
  ): Promise<ImageResult> {
    let shownPreview = -1;
    const run = async (signal: AbortSignal) => {
      try {
        // Checked again at the job's turn: a pause that began while it waited stops it before it is sent.
        await this.options.moderation?.check(job.subject);
        return await this.callGateway(await this.complete(prepared, memory, signal), this.partialImagesFor(prepared), {
          signal,
          onPartial: (image) => {
            // Shown only as it fits the upload limit (made smaller if need be, never after a later one); the job goes on meanwhile.
            void fitPreview(image, responder.maxFileBytes, (bytes) => this.memory.tryTake(bytes)).then((fitted) => {
              if (!fitted || fitted.index < shownPreview) return;
              shownPreview = fitted.index;
              progress.preview(fitted);
            });
          },
          onTaskStatus: progress.taskStatus,
          sink,
          memory,
        });
      } catch (err) {
        // A moderation refusal is a strike, counted before the job gives its place to the member's next one; the
        // member reads how many are left, or until when they are now paused.
        throw (await this.options.moderation?.counted(err, job)) ?? err;
      } finally {
        // The references are read no more once the call has settled (a retry or recovery is part of the call).
        memory.releaseReferences();
      }
    };
    const queuedAt = this.clock.now();
    const ticket = this.options.queue.submit(job.subject.userId, run, {
      onPosition: (position) => {
        progress.queued(position);
      },
      onStart: () => {
        this.metrics.queueWaited((this.clock.now() - queuedAt) / 1000);
        progress.started(this.clock.now());
      },
    });
    if (!ticket.accepted) {
      throw ticket.reason === 'closed'
        ? new UserFacingError('job.cancelled')
        : new UserFacingError('queue.full', { limit: this.options.perMemberQueued ?? 10 });
    }
    // No reply to deliver into: stop waiting or generating (runReserved refunds).
    responder.ready?.catch(() => ticket.cancel());
    // Claimed by another process: the gateway call is cut too.
    this.options.claims?.watching(job.id)?.addEventListener('abort', () => ticket.cancel(), { once: true });
    try {
      return await ticket.result;
    } finally {
      await progress.stop();
    }
  }

  /** ✨ Enhance under a result: prompt help is configured and allowed here, and the prompt was not enhanced already. */
  private offersEnhance(prepared: Prepared, enhancement: EnhancementOutcome): boolean {
    return this.options.promptHelp !== undefined && prepared.promptHelp && enhancement.prompts === undefined;
  }

  /** Partial images a call asks for (0: not streamed): none from a model that does not stream, nor for GIF or SVG. */
  private partialImagesFor({ profile, request, previews, spoiler }: Pick<Prepared, 'profile' | 'request' | 'previews' | 'spoiler'>): number {
    const raster = request.outputFormat !== 'gif' && request.outputFormat !== 'svg';
    // A preview would show in the clear what a spoiler channel hides.
    return previews && !spoiler && profile.streaming && raster ? (this.options.partialImages ?? 1) : 0;
  }

  private callGateway(
    request: GenerateRequest | EditRequest,
    partialImages: number,
    hooks: Pick<GatewayCallOptions, 'signal' | 'onPartial' | 'onTaskStatus' | 'sink' | 'memory'>,
  ): Promise<ImageResult> {
    const options: GatewayCallOptions = { ...hooks, stream: partialImages > 0, partialImages: partialImages > 0 ? partialImages : undefined };
    return 'images' in request ? this.options.gateway.edit(request, options) : this.options.gateway.generate(request, options);
  }

  /** Charges the delivered images, and the cost (`usd`: actual, else estimated) where a money limit held it. */
  private async commit(job: ImageJob, delivered: number, usd: number | undefined, log: Logger): Promise<void> {
    try {
      await this.options.quotas.commit(job.id, delivered);
    } catch (err) {
      // The images are posted; the reservation, no longer renewed, lapses with its lease: the member is at worst not charged.
      log.error({ err }, 'quota commit failed');
    }
    if (usd === undefined) return;
    await this.options.spend?.commit(job.id, usd).catch((err: unknown) => {
      log.error({ err }, 'spend commit failed; the estimate lapses with its lease');
    });
  }

  /** Gives the images back, and the money held but `chargeUsd` (prompt help that ran), which is committed. */
  private async refund(job: ImageJob, holds: Holds, log: Logger, chargeUsd = 0): Promise<void> {
    try {
      await this.options.quotas.refund(job.id);
    } catch (err) {
      log.error({ err }, 'quota refund failed; the reservation lapses with its lease');
    }
    if (!holds.spend) return;
    const spend = this.options.spend;
    const settle = chargeUsd > 0 ? spend?.commit(job.id, chargeUsd) : spend?.refund(job.id);
    await settle?.catch((err: unknown) => {
      log.error({ err }, `spend ${chargeUsd > 0 ? 'commit' : 'refund'} failed; the estimate lapses with its lease`);
    });
  }
}

function spendError(status: SpendStatus, estimate: number): UserFacingError {
  if (status.usd === 0) return new UserFacingError('quota.blocked');
  return new UserFacingError('spend.exceeded', { estimateUsd: estimate, limitUsd: status.usd, remainingUsd: status.remaining, resetsAt: status.resetsAt });
}

function quotaError(status: QuotaStatus, requested: number): UserFacingError {
  if (status.limit === 0) return new UserFacingError('quota.blocked');
  return new UserFacingError('quota.exceeded', { limit: status.limit, remaining: status.remaining, resetsAt: status.resetsAt, requested });
}

const DEFAULT_PROFILES = new ModelProfiles();

/** An image's dimensions as Discord declared them; 1024×1024 when it did not. */
function declaredDimensions(ref: AttachmentRef | undefined): { width: number; height: number } {
  return { width: ref?.width ?? 1024, height: ref?.height ?? 1024 };
}
