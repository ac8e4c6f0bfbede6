/**
 * The use case: one member's image job from acceptance to delivery.
 * download references → validate → reserve quota → queue fairly → call the gateway → fit files → deliver → commit;
 * any failure before the commit refunds the reservation, exactly once.
 */
import type { Logger } from 'pino';
import { UserFacingError } from '../errors.js';
import { toUserFacingError } from './error-mapping.js';
import type { FairQueue } from './fair-queue.js';
import { fitToLimit } from './fit-attachment.js';
import { validateEditRequest, validateGenerateRequest } from './image-rules.js';
import type { AttachmentRef, DeliveryFile, DeliveryNotice, ImageJob, JobProgress, Responder } from './jobs.js';
import type { Clock, EditRequest, GatewayCallOptions, GenerateRequest, ImageGateway, ImageResult, PartialImage, QuotaLedger, QuotaStatus } from './ports.js';
import { systemClock } from './ports.js';
import { createProgressThrottle } from './progress-throttle.js';
import { Semaphore } from './streaming/semaphore.js';
import type { JobArchive } from './job-archive.js';
import { UploadFeed } from './streaming/upload-feed.js';
import { AnswerBufferPool } from './streaming/answer-buffers.js';

const MIB = 1024 * 1024;
const DEFAULT_DELIVERY_BUDGET = 32 * MIB;
/** Weight of an answer without Content-Length (streams): about one large multi-image answer. */
const UNKNOWN_ANSWER_BYTES = 16 * MIB;

/** Options for {@link ImageService}. */
export interface ImageServiceOptions {
  gateway: ImageGateway;
  quotas: QuotaLedger;
  queue: FairQueue;
  /** Downloads one member attachment (host allow-list and size cap applied). */
  download: (ref: AttachmentRef, signal?: AbortSignal) => Promise<Buffer>;
  logger: Logger;
  /** Minimum time between two progress edits. @default 3000 */
  progressIntervalMs?: number | undefined;
  /** Partial images to ask for when streaming; 0 turns streaming off. @default 1 */
  partialImages?: number | undefined;
  /** Per-member waiting limit, named in the queue-full message. @default 10 */
  perMemberQueued?: number | undefined;
  clock?: Clock | undefined;
  /**
   * Gateway answer bytes being decoded and posted at once. A job takes its answer's size from this budget when
   * the answer arrives and gives it back after delivery; answers beyond it wait unread in their sockets, so
   * memory stays bounded however many gateway calls run. @default 32 MiB
   */
  deliveryBudgetBytes?: number | undefined;
  /** Remembers delivered jobs for their buttons; without it, buttons find nothing. */
  archive?: Pick<JobArchive, 'remember'> | undefined;
}

/** Runs image jobs; see the module comment for the flow. */
export class ImageService {
  private readonly options: ImageServiceOptions;
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly deliveries: Semaphore;
  /** Buffers answers are decoded into, reused from job to job; it keeps what the delivery budget lets be in use. */
  private readonly answerBuffers: AnswerBufferPool;

  constructor(options: ImageServiceOptions) {
    this.options = options;
    const deliveryBudget = options.deliveryBudgetBytes ?? DEFAULT_DELIVERY_BUDGET;
    this.deliveries = new Semaphore(deliveryBudget);
    this.answerBuffers = new AnswerBufferPool(deliveryBudget);
    this.log = options.logger.child({ module: 'image-service' });
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Runs a job to the end. Member-facing failures are thrown as {@link UserFacingError} after the quota was
   * refunded; the caller (the router's error boundary) answers them.
   */
  async run(job: ImageJob, responder: Responder): Promise<void> {
    const log = this.log.child({ jobId: job.id, kind: job.kind });
    try {
      const prepared = await this.prepare(job);
      await this.reserve(job, prepared.n ?? 1);
      await this.runReserved(job, prepared, prepared.n ?? 1, responder, log);
    } catch (err) {
      const mapped = toUserFacingError(err, () => this.options.gateway.cachedModels().map((m) => m.id));
      // The member only hears "not available right now"; the operator must fix the key or the balance.
      if (mapped instanceof UserFacingError && mapped.identifier === 'gateway.unavailable')
        log.error({ err }, 'gateway account problem: check the API key and balance');
      throw mapped;
    }
  }

  /** Downloads references (their URLs expire) and applies the pre-flight rules; nothing is charged yet. */
  private async prepare(job: ImageJob): Promise<GenerateRequest | EditRequest> {
    if (!job.edit) return validateGenerateRequest(job.request);
    const { images, mask, inputFidelity } = job.edit;
    const [imageBytes, maskBytes] = await Promise.all([
      Promise.all(images.map((ref) => this.options.download(ref))),
      mask ? this.options.download(mask) : Promise.resolve(undefined),
    ]);
    return validateEditRequest({
      ...job.request,
      images: imageBytes.map((bytes, i) => ({ bytes, filename: images[i]?.filename })),
      mask: maskBytes && mask ? { bytes: maskBytes, filename: mask.filename } : undefined,
      inputFidelity,
    });
  }

  private async reserve(job: ImageJob, count: number): Promise<void> {
    const outcome = await this.options.quotas.reserve(job.subject, job.id, count);
    if (!outcome.ok) throw quotaError(outcome.status, count);
  }

  private async runReserved(job: ImageJob, request: GenerateRequest | EditRequest, expectedImages: number, responder: Responder, log: Logger): Promise<void> {
    let committed = false;
    let releaseDelivery: (() => void) | undefined;
    const beforeBody = async ({ contentLength }: { contentLength: number | undefined }) => {
      releaseDelivery ??= await this.deliveries.acquire(contentLength ?? UNKNOWN_ANSWER_BYTES);
    };
    let feed: UploadFeed | undefined;
    const buffers = this.answerBuffers.lease();
    try {
      const generated = await this.queueAndGenerate(job, request, responder, log, { beforeBody, expectedImages, answerBuffer: buffers.take });
      feed = generated.feed;
      const { result } = generated;
      const { files, notices } = await fitAll(result, responder.maxFileBytes);
      const upload = await feed?.settle(files);
      const { messageIds } = await responder.deliver({ job, model: result.model, files, notices }, upload);
      committed = true;
      await this.commit(job, files.length, log);
      await this.options.archive?.remember(job, messageIds).catch((err: unknown) => log.warn({ err }, 'could not store job for its buttons'));
      log.info({ images: files.length, requestId: result.requestId, usage: result.usage }, 'image job delivered');
    } finally {
      // Whatever went wrong, an upload still under way must post nothing (a no-op once it has been completed).
      if (!committed) await feed?.settle(undefined);
      releaseDelivery?.();
      if (!committed) await this.refund(job, log);
      // Last: the gateway call has settled (the queue settles a ticket only then) and the upload is finished or
      // abandoned, so nothing reads this job's images any more.
      buffers.release();
    }
  }

  /**
   * Queues the gateway call and reports progress until it ends. With a responder that can post while the answer
   * arrives, the answer's images also go to an {@link UploadFeed}, returned for the caller to settle.
   */
  private async queueAndGenerate(
    job: ImageJob,
    request: GenerateRequest | EditRequest,
    responder: Responder,
    log: Logger,
    call: { beforeBody: NonNullable<GatewayCallOptions['beforeBody']>; expectedImages: number; answerBuffer: NonNullable<GatewayCallOptions['answerBuffer']> },
  ): Promise<{ result: ImageResult; feed: UploadFeed | undefined }> {
    const interval = this.options.progressIntervalMs ?? 3_000;
    const progress = createProgressThrottle<JobProgress>((p) => responder.progress(p), {
      intervalMs: interval,
      onError: (err) => log.warn({ err }, 'progress update failed'),
    });
    let startedAt = 0;
    let queued = false;
    let firstUpdate: NodeJS.Timeout | undefined;
    let preview: PartialImage | undefined;
    const generating = () => progress.update({ stage: 'generating', startedAt, preview });
    const onPartial = (image: PartialImage) => {
      preview = image;
      generating();
    };
    // The upload begins with the first image bytes; progress edits stop first, so none can land after it.
    const stopProgress = () => {
      clearTimeout(firstUpdate);
      return progress.stop();
    };
    const openUpload = responder.openUpload?.bind(responder);
    const feed = openUpload && new UploadFeed(() => openUpload(job, { expectedImages: call.expectedImages, after: stopProgress() }), responder.maxFileBytes);
    const hooks = { onPartial, beforeBody: call.beforeBody, imageFeed: feed, answerBuffer: call.answerBuffer };
    const ticket = this.options.queue.submit(job.subject.userId, (signal) => this.callGateway(request, { signal, ...hooks }), {
      onPosition: (position) => {
        queued = true;
        progress.update({ stage: 'queued', position });
      },
      onStart: () => {
        startedAt = this.clock.now();
        // After "Queued", say at once that it started. Otherwise Discord's "thinking…" already says so: the
        // first edit waits one interval, and a quick job finishes without one (less traffic under load).
        if (queued) generating();
        else firstUpdate = setTimeout(generating, interval).unref();
      },
    });
    if (!ticket.accepted) {
      throw ticket.reason === 'closed'
        ? new UserFacingError('job.cancelled')
        : new UserFacingError('queue.full', { limit: this.options.perMemberQueued ?? 10 });
    }
    // No reply to deliver into: stop waiting or generating (the finally of runReserved refunds).
    responder.ready?.catch(() => ticket.cancel());
    try {
      return { result: await ticket.result, feed };
    } catch (err) {
      await feed?.settle(undefined);
      throw err;
    } finally {
      await stopProgress();
    }
  }

  private callGateway(
    request: GenerateRequest | EditRequest,
    hooks: Pick<GatewayCallOptions, 'signal' | 'onPartial' | 'beforeBody' | 'imageFeed' | 'answerBuffer'>,
  ): Promise<ImageResult> {
    const partialImages = this.options.partialImages ?? 1;
    const options: GatewayCallOptions = { ...hooks, stream: partialImages > 0, partialImages: partialImages > 0 ? partialImages : undefined };
    return 'images' in request ? this.options.gateway.edit(request, options) : this.options.gateway.generate(request, options);
  }

  private async commit(job: ImageJob, delivered: number, log: Logger): Promise<void> {
    try {
      await this.options.quotas.commit(job.id, delivered);
    } catch (err) {
      // The images are posted; an unsettled reservation expires on its own, so the member is at worst not charged.
      log.error({ err }, 'quota commit failed');
    }
  }

  private async refund(job: ImageJob, log: Logger): Promise<void> {
    try {
      await this.options.quotas.refund(job.id);
    } catch (err) {
      log.error({ err }, 'quota refund failed; the reservation will expire on its own');
    }
  }
}

function quotaError(status: QuotaStatus, requested: number): UserFacingError {
  if (status.limit === 0) return new UserFacingError('quota.blocked');
  return new UserFacingError('quota.exceeded', { limit: status.limit, remaining: status.remaining, resetsAt: status.resetsAt, requested });
}

/** Fits every image to the destination's per-file limit; dropped images are not delivered (and not charged). */
async function fitAll(result: ImageResult, maxFileBytes: number): Promise<{ files: DeliveryFile[]; notices: DeliveryNotice[] }> {
  const outcomes = await Promise.all(result.images.map((image) => fitToLimit(image, maxFileBytes)));
  const files: DeliveryFile[] = [];
  let reencoded = 0;
  let dropped = 0;
  let reencodedFormat: DeliveryFile['format'] = 'webp';
  for (const outcome of outcomes) {
    if (outcome.kind === 'dropped') {
      dropped += 1;
      continue;
    }
    if (outcome.kind === 'reencoded') {
      reencoded += 1;
      reencodedFormat = outcome.image.format;
    }
    files.push(outcome.image);
  }
  const notices: DeliveryNotice[] = [];
  if (result.sizeFallback) notices.push({ kind: 'sizeFallback', ...result.sizeFallback });
  if (result.droppedParams.length > 0) notices.push({ kind: 'droppedParams', params: result.droppedParams });
  if (reencoded > 0) notices.push({ kind: 'reencoded', count: reencoded, format: reencodedFormat });
  if (dropped > 0) notices.push({ kind: 'dropped', count: dropped });
  if (files.length === 0) throw new UserFacingError('delivery.failed');
  return { files, notices };
}
