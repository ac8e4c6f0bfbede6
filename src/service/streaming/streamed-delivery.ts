/**
 * The streamed delivery behind one seam. One {@link JobStream} per job takes the gateway call's answer while it
 * arrives (the produce step passes it the stream's `buffer`, `image_data` and `image_end` events) and owns
 * the job's lease of answer Buffers and its upload feed (the memory budget, memory-budget.ts, bounds how many
 * answers are read at once); ImageService only opens
 * it, settles it with the files to post and closes it. Without a StreamedDelivery (STREAM_DELIVERIES=false) none
 * of this runs: the gateway reads answers on its own and the responder posts them the usual way.
 */
import type { DeliveryFile } from '../../core/jobs.js';
import type { ImageUpload } from '../../ports/responder.js';
import { AnswerBufferPool, type AnswerBufferLease } from './answer-buffers.js';
import { UploadFeed, type OpenUpload } from './upload-feed.js';

const MIB = 1024 * 1024;
/** Answer Buffers kept while unused, by default: what a quiet bot holds on to beside its memory budget. */
export const DEFAULT_IDLE_BUFFER_BYTES = 32 * MIB;

/** Options of {@link StreamedDelivery}. */
export interface StreamedDeliveryOptions {
  /** Answer Buffers kept for reuse while no job uses them. @default 32 MiB */
  idleBufferBytes?: number | undefined;
}

/** The shared Buffer pool, handing out one JobStream per job. */
export class StreamedDelivery {
  /** Buffers answers are decoded into, reused from job to job. */
  private readonly buffers: AnswerBufferPool;

  constructor(options: StreamedDeliveryOptions = {}) {
    this.buffers = new AnswerBufferPool(options.idleBufferBytes ?? DEFAULT_IDLE_BUFFER_BYTES);
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
    return new JobStream(this.buffers.lease(), new UploadFeed(options.openUpload, options.maxFileBytes));
  }
}

/** One job's streamed delivery; see the module comment. */
export class JobStream {
  private readonly lease: AnswerBufferLease;
  private readonly feed: UploadFeed;

  constructor(lease: AnswerBufferLease, feed: UploadFeed) {
    this.lease = lease;
    this.feed = feed;
  }

  /** The Buffer an answer's images are decoded into (the call's `buffer` event), the job's until it is closed. */
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
   * delivered, an upload still under way is abandoned (posts nothing); then the Buffers go back,
   * since nothing reads this job's images any more. Never rejects.
   */
  async close(delivered: boolean): Promise<void> {
    if (!delivered) await this.feed.settle(undefined);
    this.lease.release();
  }
}
