/**
 * Turns failures from the gateway, storage, queue and downloads into errors a member can act on.
 * Anything not recognised is rethrown unchanged, so the router treats it as unexpected. A parameter is named
 * by its request field (`outputCompression`); how members know it is the commands' business.
 */
import { UserFacingError } from '../errors.js';
import { AttachmentDownloadError } from '../core/attachment-download.js';
import { GatewayError } from '../core/gateway-error.js';
import { QueueCancelledError, QueueClosedError } from './fair-queue.js';
import { fieldOfWireName } from '../core/image-request.js';
import { ImageInputError } from '../core/image-rules.js';
import { largerThan, phrase, tooManyPixels, type Phrase } from '../core/phrase.js';

/** Maps a failure to a {@link UserFacingError}; `models` feeds the unknown-model message. */
export function toUserFacingError(err: unknown, models: () => readonly string[]): unknown {
  if (err instanceof UserFacingError) return err;
  if (err instanceof ImageInputError) {
    return new UserFacingError('input.invalid', { param: fieldOf(err.param), allowed: err.allowed, detail: err.detail }, { cause: err });
  }
  if (err instanceof AttachmentDownloadError) {
    // The cap read to: ATTACHMENT_MAX_BYTES, the size Discord declared, or an unsized image's share (image-rules.ts).
    const detail = err.reason === 'too_large' && err.maxBytes !== undefined ? largerThan(err.maxBytes) : DOWNLOAD_COPY[err.reason];
    return new UserFacingError('input.attachmentInvalid', { detail }, { cause: err });
  }
  if (err instanceof QueueClosedError) return new UserFacingError('job.cancelled', {}, { cause: err });
  // The only canceller of a single job is a lost acknowledgement (ImageService cancels when Responder.ready rejects).
  if (err instanceof QueueCancelledError) return new UserFacingError('job.unacknowledged', {}, { cause: err });
  if (err instanceof GatewayError) return fromGateway(err, models);
  if (err instanceof Error && 'code' in err && err.code === 'storage.corrupt') return new UserFacingError('storage.corrupt', {}, { cause: err });
  if (err instanceof Error && err.name === 'StorageUnavailableError') return new UserFacingError('storage.unavailable', {}, { cause: err });
  return err;
}

function fromGateway(err: GatewayError, models: () => readonly string[]): UserFacingError {
  const cause = { cause: err };
  // Refused, unresolvable or unroutable: the gateway is down, not this request at fault (the start-up check logs it).
  if (err.beforeSend) return new UserFacingError('gateway.unavailable', {}, cause);
  switch (err.category) {
    case 'invalid_key':
    case 'balance_exhausted':
      return new UserFacingError('gateway.unavailable', {}, cause);
    case 'unknown_model':
      return new UserFacingError('gateway.unknownModel', { models: models() }, cause);
    case 'bad_parameter':
      // A background refused by the model: a transparent one (an opaque one is never refused; recovery.ts keeps it).
      if (err.param === 'background' && /transparen/i.test(err.message)) return new UserFacingError('gateway.transparencyRefused', {}, cause);
      return new UserFacingError('gateway.badParameter', { param: err.param ? gatewayParam(err.param) : undefined }, cause);
    case 'content_rejected':
      return new UserFacingError('gateway.contentRejected', {}, cause);
    case 'busy':
      return new UserFacingError('gateway.busy', {}, cause);
    case 'timed_out':
      // Cloudflare's 524: it cut a call that ran past its 100 s (a relay behind it), however long the bot would wait.
      return new UserFacingError(err.status === 524 && err.proxy === 'cloudflare' ? 'gateway.cutOff' : 'gateway.timedOut', {}, cause);
    case 'endpoint_missing':
      return new UserFacingError('gateway.endpointMissing', {}, cause);
    case 'cancelled':
      return new UserFacingError('job.cancelled', {}, cause);
    case 'gateway_failure':
      // An image declaring more pixels than the bot decodes (decode.ts): said so, with its size.
      if (err.code === 'image_too_large' && err.pixels) return new UserFacingError('gateway.imageTooLarge', { detail: tooManyPixels(err.pixels) }, cause);
      return new UserFacingError('gateway.failure', {}, cause);
  }
}

const DOWNLOAD_COPY: Record<AttachmentDownloadError['reason'], Phrase> = {
  host_not_allowed: phrase('detail.download.notDiscord'),
  too_large: largerThan(50 * 1024 * 1024),
  http_status: phrase('detail.download.expired'),
  timeout: phrase('detail.download.timeout'),
  network: phrase('detail.download.failed'),
  cancelled: phrase('detail.download.cancelled'),
};

/**
 * A parameter the gateway named in an error, as the member may see it: a request field, or a short parameter-like
 * name (`partial_images`, `image[0]`). Anything else (long, or text that could format the message) is dropped, and
 * the member reads "one of the options": the gateway's words never reach a message unbounded.
 */
function gatewayParam(wireName: string): string | undefined {
  const field = fieldOfWireName(wireName);
  if (field !== undefined) return field;
  return /^[a-z][a-z0-9_.[\]]{0,39}$/i.test(wireName) ? wireName : undefined;
}

/** The request field a wire name stands for; a name that is no field's (`partial_images`) as it is. */
function fieldOf(wireName: string): string {
  return fieldOfWireName(wireName) ?? wireName;
}
