/**
 * Gateway errors. The service layer reads only `category`, `param` and `requestId`; the subclasses keep the
 * request context for logs.
 *
 * @see ../../../shared/docs/image-gateway.md §6
 */
import { classifyFailure, findParam, type FailureInfo } from './classify.js';
import { proxyOf, type GatewayProxy } from './cloudflare.js';
import { findRequestId, stripRequestId, type ResponseHeaders } from './request-id.js';
import { parseRetryAfter } from './retry-after.js';
import { ErrorEnvelope, FlatErrorBody, parseJson } from './schemas.js';
import { GatewayError, type GatewayErrorCategory, type GatewayErrorDetails } from '../core/gateway-error.js';

export { GatewayError, type GatewayErrorCategory, type GatewayErrorDetails } from '../core/gateway-error.js';

/** The gateway answered with an error status (or a 200 carrying an error object, or a stream error event). */
export class GatewayHttpError extends GatewayError {
  override name = 'GatewayHttpError';
  /** The error `type` from the body, when given. */
  readonly type?: string | undefined;
  /** The wait the gateway asked for (Retry-After), in milliseconds. */
  readonly retryAfterMs?: number | undefined;

  constructor(message: string, details: GatewayErrorDetails & { type?: string | undefined; retryAfterMs?: number | undefined }) {
    super(message, details);
    this.type = details.type;
    this.retryAfterMs = details.retryAfterMs;
  }

  /**
   * Builds the classified error from a status, the body text (JSON or not) and the response headers.
   * @param nowMs the time against which an HTTP-date Retry-After is read
   */
  static fromResponse(status: number | undefined, bodyText: string, headers: ResponseHeaders, nowMs = Date.now()): GatewayHttpError {
    const info = failureInfo(status, bodyText);
    const requestId = findRequestId(headers, info.rawMessage);
    return GatewayHttpError.fromFailure(info, requestId, parseRetryAfter(headers, nowMs), proxyOf(headers));
  }

  /** Builds the classified error from an already-parsed failure. */
  static fromFailure(info: FailureInfo, requestId: string | undefined, retryAfterMs?: number, proxy?: GatewayProxy): GatewayHttpError {
    const category = classifyFailure(info);
    const param = category === 'bad_parameter' ? findParam(info) : undefined;
    const prefix = info.status === undefined ? 'gateway error' : `gateway answered ${info.status}`;
    return new GatewayHttpError(`${prefix}: ${loggable(info.message) || '(no message)'}`, {
      category,
      status: info.status,
      code: info.code,
      type: info.type,
      param,
      requestId,
      retryAfterMs,
      proxy,
    });
  }
}

/** The response arrived but is unusable: malformed, truncated, oversized, or not the image asked for. */
export class GatewayResponseError extends GatewayError {
  override name = 'GatewayResponseError';
}

/**
 * A task the gateway answered with failed, or could not be polled. Its POST has been answered, so it is never
 * retried or recovered (a second POST could bill twice); see task-poll.ts.
 */
export class GatewayTaskError extends GatewayError {
  override name = 'GatewayTaskError';
}

/** No usable response: the connection failed. `beforeSend` is true when the request cannot have reached the gateway. */
export class GatewayConnectionError extends GatewayError {
  override name = 'GatewayConnectionError';

  constructor(message: string, details: Omit<GatewayErrorDetails, 'category'> & { beforeSend: boolean; category?: GatewayErrorCategory }) {
    super(message, { ...details, category: details.category ?? 'gateway_failure' });
  }
}

/** The deadline, or the agent's connect, header or body timeout, passed. Never retried: the gateway may have billed. */
export class GatewayTimeoutError extends GatewayConnectionError {
  override name = 'GatewayTimeoutError';

  constructor(message: string, details: Omit<GatewayErrorDetails, 'category'> & { beforeSend?: boolean }) {
    super(message, { ...details, beforeSend: details.beforeSend ?? false, category: 'timed_out' });
  }
}

/** The caller aborted. */
export class GatewayCancelledError extends GatewayError {
  override name = 'GatewayCancelledError';

  constructor(details: Omit<GatewayErrorDetails, 'category'> = {}) {
    super('gateway request cancelled by the caller', { ...details, category: 'cancelled' });
  }
}

/**
 * The most of a gateway's own error message an error (and so a log line) carries. Classification reads the whole
 * message first; what is kept is enough to tell what happened, while a relay that echoes the request (prompts, data
 * URLs of the members' images, up to the 1 MiB error-body cap) cannot put it in the logs.
 */
const MAX_MESSAGE_CHARS = 300;

/** A gateway message as an error may carry it: keys redacted, cut to {@link MAX_MESSAGE_CHARS}. */
function loggable(message: string): string {
  const redacted = redactKeys(message);
  return redacted.length <= MAX_MESSAGE_CHARS ? redacted : `${redacted.slice(0, MAX_MESSAGE_CHARS)}… (${redacted.length} characters)`;
}

/**
 * Gateways echo keys in messages ("Incorrect API key provided: sk-…"); errors end up in logs, keys must not.
 * Keeps a short prefix so the operator can still tell which key it was.
 */
function redactKeys(message: string): string {
  return message.replace(/\b(sk-[A-Za-z0-9]{0,4})[A-Za-z0-9_*-]{4,}/g, '$1***').replace(/(Bearer\s+)\S+/gi, '$1***');
}

/** The <title> of an HTML page, which is where a proxy's error page says what happened. */
function htmlTitle(text: string): string | undefined {
  if (!text.trimStart().startsWith('<')) return undefined;
  return /<title[^>]*>([^<]{1,300})<\/title>/i.exec(text.slice(0, 4096))?.[1]?.replace(/\s+/g, ' ');
}

/** Reads whatever error shape the body has (JSON envelope, flat JSON, HTML, nothing). */
function failureInfo(status: number | undefined, bodyText: string): FailureInfo & { rawMessage: string } {
  const json = parseJson(bodyText);
  const envelope = ErrorEnvelope.safeParse(json);
  const object = envelope.success ? envelope.data.error : FlatErrorBody.safeParse(json).data;
  if (!object) {
    // HTML from a proxy (its <title> says what happened), or an empty 429 from the rate limiter: only the status and
    // the text are known.
    const raw = (htmlTitle(bodyText) ?? bodyText).trim().slice(0, 300);
    return { status, message: stripRequestId(raw), rawMessage: raw };
  }
  const raw = object.message ?? '';
  return { status, code: object.code, type: object.type ?? undefined, param: object.param, message: stripRequestId(raw), rawMessage: raw };
}
