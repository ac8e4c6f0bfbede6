/**
 * Downloads the images members attach to /edit from Discord's CDN. Discord attachment URLs are signed and expire,
 * so they are fetched as soon as the command arrives; only from Discord's CDN hosts, and never more than a size cap.
 * Failures are the service's {@link AttachmentDownloadError}, so it can tell the member what went wrong.
 */
import { request, type Dispatcher } from 'undici';
import { AttachmentDownloadError } from '../core/attachment-download.js';
import { processGarbage } from '../garbage.js';

/** Options for {@link downloadAttachment}. */
export interface DownloadOptions {
  /**
   * Hosts attachments may come from, as `hostname` (HTTPS on the default port) or `hostname:port` (HTTP or HTTPS
   * on exactly that port, for a local Discord emulator such as `127.0.0.1:40123`).
   * @example ['cdn.discordapp.com', 'media.discordapp.net']
   */
  allowedHosts: readonly string[];
  /** Largest accepted body, in bytes; checked against Content-Length and again while streaming. */
  maxBytes: number;
  /** Budget for the whole download, headers and body. */
  timeoutMs: number;
  /** The shared undici dispatcher (STYLE §5); it must not follow redirects, which plain undici agents do not. */
  dispatcher: Dispatcher;
  /** Cancels the download. */
  signal?: AbortSignal | undefined;
  /**
   * Told the body's length so far before each allocation of it (the whole Content-Length at once, else each chunk's
   * running total), so a memory budget admits the bytes before they are held; throwing stops the download.
   */
  admit?: ((bytes: number) => void) | undefined;
}

/** How long one download from Discord's CDN may take, headers and body (the default of {@link cdnDownloader}). */
export const CDN_DOWNLOAD_TIMEOUT_MS = 60_000;

/** One download from Discord's CDN: `url`, read to at most `maxBytes`, each allocation told to `admit` first. */
export type CdnDownload = (url: string, maxBytes: number, signal?: AbortSignal, admit?: (bytes: number) => void) => Promise<Buffer>;

/**
 * The bot's one way of downloading from Discord's CDN (an edit's references, /show's images, the image a describe
 * reads): {@link downloadAttachment} bound to the allowed hosts, the dispatcher and the timeout.
 */
export function cdnDownloader(options: Pick<DownloadOptions, 'allowedHosts' | 'dispatcher'> & { timeoutMs?: number | undefined }): CdnDownload {
  const { allowedHosts, dispatcher } = options;
  const timeoutMs = options.timeoutMs ?? CDN_DOWNLOAD_TIMEOUT_MS;
  return (url, maxBytes, signal, admit) => downloadAttachment(url, { allowedHosts, dispatcher, timeoutMs, maxBytes, signal, admit });
}

/**
 * Whether `url` may be downloaded under `allowedHosts` (see {@link DownloadOptions.allowedHosts}).
 *
 * An entry without a port admits only `https:` on the default port, so a DNS name cannot be reached over plain
 * HTTP or on another port. An entry naming a port admits exactly that host and port, over HTTP or HTTPS: that
 * is how a test or a local emulator on `http://127.0.0.1:PORT` is allowed, and it is never true of Discord's CDN.
 * URLs with credentials are refused.
 */
export function isAllowedAttachmentUrl(url: string, allowedHosts: readonly string[]): boolean {
  const target = URL.parse(url);
  if (target?.username !== '' || target.password !== '') return false;
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return false;
  return allowedHosts.some((entry) => {
    // Parsing the entry as a URL normalises case, IDN and IPv6 brackets the same way as the target.
    const allowed = URL.parse(`http://${entry}`);
    if (allowed?.hostname !== target.hostname) return false;
    if (allowed.port !== '') return target.port === allowed.port;
    return target.protocol === 'https:' && target.port === '';
  });
}

/**
 * Downloads an attachment into memory.
 *
 * @throws {AttachmentDownloadError} for a host outside the list (before any request), a body over `maxBytes`
 * (the connection is closed as soon as the cap is passed), a non-2xx status (redirects included), a timeout, a
 * network error or cancellation.
 */
export async function downloadAttachment(url: string, options: DownloadOptions): Promise<Buffer> {
  if (!isAllowedAttachmentUrl(url, options.allowedHosts)) {
    throw new AttachmentDownloadError('host_not_allowed', 'Attachment URL is not on an allowed host');
  }
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
  try {
    const response = await request(url, { method: 'GET', dispatcher: options.dispatcher, signal });
    return await readBody(response, options.maxBytes, options.admit);
  } catch (error) {
    if (error instanceof AttachmentDownloadError) throw error;
    // The budget's own refusal reaches the caller as it is.
    if (error instanceof AdmissionRefused) throw error.cause;
    if (options.signal?.aborted === true) {
      throw new AttachmentDownloadError('cancelled', 'Attachment download was cancelled', { cause: error });
    }
    if (timeout.aborted) {
      throw new AttachmentDownloadError('timeout', 'Attachment download timed out', { cause: error });
    }
    throw new AttachmentDownloadError('network', 'Attachment download failed', { cause: error });
  }
}

async function readBody(response: Dispatcher.ResponseData, maxBytes: number, admit: DownloadOptions['admit']): Promise<Buffer> {
  const { statusCode, headers, body } = response;
  if (statusCode < 200 || statusCode >= 300) {
    // Discarding rather than draining: an error page is of no use, and the connection is cheap to replace.
    discard(body);
    throw new AttachmentDownloadError('http_status', `Attachment download returned HTTP ${statusCode}`, {
      status: statusCode,
    });
  }
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    discard(body);
    throw tooLarge(maxBytes);
  }
  // With a Content-Length the body goes straight into one Buffer of that size (no second copy, so an image
  // weighs once what the memory budget counts); without one, chunks are joined at the end.
  const sized = Number.isFinite(declared) && declared >= 0;
  if (sized) admitOrDiscard(admit, declared, body);
  const whole = sized ? Buffer.allocUnsafe(declared) : undefined;
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    if (total + bytes.length > (whole?.length ?? maxBytes)) {
      // A missing or lying Content-Length: stop reading and close the connection instead of buffering more.
      discard(body);
      throw tooLarge(maxBytes);
    }
    if (whole) bytes.copy(whole, total);
    else {
      admitOrDiscard(admit, total + bytes.length, body);
      chunks.push(bytes);
    }
    total += bytes.length;
    processGarbage.chunksRead(bytes.length);
  }
  return whole ? whole.subarray(0, total) : Buffer.concat(chunks, total);
}

/** Asks `admit` for `bytes`; a refusal closes the connection before it propagates. */
function admitOrDiscard(admit: DownloadOptions['admit'], bytes: number, body: Dispatcher.ResponseData['body']): void {
  try {
    admit?.(bytes);
  } catch (err) {
    discard(body);
    throw new AdmissionRefused(err);
  }
}

/** What `admit` threw, carried through the download's own error handling. */
class AdmissionRefused extends Error {
  constructor(cause: unknown) {
    super('the memory budget refused the download', { cause });
  }
}

/** Closes the connection under a body we will not read. */
function discard(body: Dispatcher.ResponseData['body']): void {
  // undici's body emits an AbortError when destroyed before its end; the outcome is already decided, and an
  // unhandled 'error' event would crash the process.
  body.on('error', () => undefined);
  body.destroy();
}

function tooLarge(maxBytes: number): AttachmentDownloadError {
  return new AttachmentDownloadError('too_large', `Attachment is larger than ${maxBytes} bytes`, { maxBytes });
}
