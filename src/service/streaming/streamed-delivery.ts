/**
 * The streamed delivery behind one seam. One {@link JobStream} per job is the gateway call's AnswerSink and owns
 * the job's share of the delivery budget, its lease of answer Buffers and its upload feed; ImageService only opens
 * it, settles it with the files to post and closes it. Without a StreamedDelivery (STREAM_DELIVERIES=false) none
 * of this runs: the gateway reads answers on its own and the responder posts them the usual way.
 */
import type { DeliveryFile, ImageUpload } from '../jobs.js';
import type { AnswerSink } from '../ports.js';
import { AnswerBufferPool, type AnswerBufferLease } from './answer-buffers.js';
import { Semaphore } from './semaphore.js';
import { UploadFeed, type OpenUpload } from './upload-feed.js';

const MIB = 1024 * 1024;
/** Gateway answer bytes being decoded and posted at once, by default. */
export const DEFAULT_DELIVERY_BUDGET_BYTES = 32 * MIB;
/** Weight of an answer without Content-Length (streams): about one large multi-image answer. */
const UNKNOWN_ANSWER_BYTES = 16 * MIB;

/** Options of {@link StreamedDelivery}. */
export interface StreamedDeliveryOptions {
  /**
   * Gateway answer bytes being decoded and posted at once. A job takes its answer's size from this budget when
   * the answer arrives and gives it back when it is closed; answers beyond it wait unread in their sockets, so
   * memory stays bounded however many gateway calls run. @default 32 MiB
   */
  budgetBytes?: number | undefined;
}

/** The shared parts (budget and Buffer pool), handing out one JobStream per job. */
export class StreamedDelivery {
  private readonly deliveries: Semaphore;
  /** Buffers answers are decoded into, reused from job to job; it keeps what the budget lets be in use. */
  private readonly buffers: AnswerBufferPool;

  constructor(options: StreamedDeliveryOptions = {}) {
    const budget = options.budgetBytes ?? DEFAULT_DELIVERY_BUDGET_BYTES;
    this.deliveries = new Semaphore(budget);
    this.buffers = new AnswerBufferPool(budget);
  }

  /** Bytes of answer Buffers kept while no job uses them. */
  get idleBufferBytes(): number {
    return this.buffers.idleBytes;
  }

  /**
   * A stream for one job. `openUpload` (the responder's, for this job) is called with the answer's first image
   * bytes and may return undefined; `maxFileBytes` is the destination's per-file limit.
   */
  forJob(options: { openUpload: OpenUpload; maxFileBytes: number }): JobStream {
    return new JobStream(this.deliveries, this.buffers.lease(), new UploadFeed(options.openUpload, options.maxFileBytes));
  }
}

/** One job's streamed delivery; see the module comment. */
export class JobStream implements AnswerSink {
  private readonly deliveries: Semaphore;
  private readonly lease: AnswerBufferLease;
  private readonly feed: UploadFeed;
  private release: (() => void) | undefined;

  constructor(deliveries: Semaphore, lease: AnswerBufferLease, feed: UploadFeed) {
    this.deliveries = deliveries;
    this.lease = lease;
    this.feed = feed;
  }

  async admit({ contentLength }: { contentLength: number | undefined }): Promise<void> {
    // Once per job: a retried or recovered call is still the same job's answer.
    this.release ??= await this.deliveries.acquire(contentLength ?? UNKNOWN_ANSWER_BYTES);
  }

  buffer(bytes: number): Buffer {
    return this.lease.take(bytes);
  }

  data(index: number, bytes: Buffer): void {
    this.feed.data(index, bytes);
  }

  end(index: number, bytes: Buffer): void {
    this.feed.end(index, bytes);
  }

  /** The upload to hand to Responder.deliver, when it carries exactly `files` in order; otherwise it is abandoned. */
  settle(files: readonly DeliveryFile[]): Promise<ImageUpload | undefined> {
    return this.feed.settle(files);
  }

  /**
   * Ends the job's stream once its gateway call has settled and delivery is over: unless the result was
   * delivered, an upload still under way is abandoned (posts nothing); then the budget and the Buffers go back,
   * since nothing reads this job's images any more. Never rejects.
   */
  async close(delivered: boolean): Promise<void> {
    if (!delivered) await this.feed.settle(undefined);
    this.release?.();
    this.lease.release();
  }
}
