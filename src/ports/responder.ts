/** The responder port: the place a member asked from, as the service writes to it (implemented in src/discord). */
import type { CostConfirmation, Delivery, ImageJob, JobProgress, Posted, ReplyAddress } from '../core/jobs.js';

/** The service's view of the place the member asked from (implemented over a Discord interaction). */
export interface Responder {
  /** The largest file this destination accepts, in bytes. */
  readonly maxFileBytes: number;
  /** Where another process can answer this job if this one dies; journalled when the job is accepted. */
  readonly replyAddress?: ReplyAddress | undefined;
  /**
   * Settles once the destination accepts writes (Discord: the deferred acknowledgement, sent without waiting,
   * has landed). When it rejects, nothing can reach the member: the job is cancelled and refunded. Absent: ready.
   */
  readonly ready?: Promise<void> | undefined;
  /** Best-effort progress; failures are logged by the caller and ignored. */
  progress(update: JobProgress): Promise<void>;
  /**
   * Optional: starts posting the result while the gateway's answer is still arriving, so the upload runs alongside
   * the download. Nothing is posted unless {@link deliver} completes it. `after` settles once nothing else will be
   * written to the reply first (progress edits have stopped). Undefined when this destination cannot now.
   */
  openUpload?(job: ImageJob, options: { expectedImages: number; after: Promise<void> }): ImageUpload | undefined;
  /**
   * Posts the images; throws when they could not be posted. Returns the ids of the messages that carry them.
   * `upload`, from {@link openUpload}, carries exactly `delivery.files` and is completed rather than sent again.
   */
  deliver(delivery: Delivery, upload?: ImageUpload): Promise<Posted>;
  /**
   * Optional: asks the member to confirm an expensive request instead of running it (a message with the estimate and
   * Confirm and Cancel buttons that carry `confirmation.id`). Without it, requests run unasked.
   */
  confirmCost?(confirmation: CostConfirmation): Promise<void>;
}

/** A post of images still arriving (Responder.openUpload). */
export interface ImageUpload {
  /**
   * Decoded bytes of image `index` (0-based, one image after another). False when the upload has given up (it
   * cannot carry this image, or was abandoned); nothing more should be written then.
   */
  write(index: number, bytes: Buffer): boolean;
  /** Image `index` is complete: all its bytes, in one Buffer. */
  end(index: number, bytes: Buffer): void;
  /** The complete images written so far, in order. */
  readonly images: readonly Buffer[];
  /** Cuts the request off before its end, so nothing is posted; resolves once it has stopped (never rejects). Idempotent. */
  abandon(): Promise<void>;
}
