/** Why a download failed. */
export type AttachmentDownloadFailure = 'host_not_allowed' | 'too_large' | 'http_status' | 'timeout' | 'network' | 'cancelled';

/**
 * A download of a member's attachment that failed (thrown by the download function ImageService is given);
 * `reason` is stable for mapping to user-facing copy.
 */
export class AttachmentDownloadError extends Error {
  override name = 'AttachmentDownloadError';
  readonly reason: AttachmentDownloadFailure;
  /** The HTTP status, for `http_status`. */
  readonly status: number | undefined;
  /** The most that was to be read, for `too_large`. */
  readonly maxBytes: number | undefined;

  constructor(reason: AttachmentDownloadFailure, message: string, options: { status?: number; maxBytes?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.status = options.status;
    this.maxBytes = options.maxBytes;
  }
}
