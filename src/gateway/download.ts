/**
 * Downloads `url` image items. GPT image models answer in base64, but relays and dall-e return links; a link is
 * fetched with its own timeout and the response size cap, without our API key, and only where the link policy
 * allows (link-policy.ts: the gateway's host or GATEWAY_URL_HOSTS, never an internal address unless listed).
 *
 * @see ../../../shared/docs/image-gateway.md §4.2.3 (relays return url items; downloads can be slow)
 */
import type { CallScope } from './call-scope.js';
import { GatewayResponseError, GatewayTimeoutError } from './errors.js';
import { decodeBase64 } from './decode.js';
import type { GatewayHttp } from './http.js';
import { toGatewayError } from './http-errors.js';
import { LinkRefusedError } from './link-policy.js';

/** How to download one link. */
export interface DownloadOptions {
  http: GatewayHttp;
  maxBytes: number;
  timeoutMs: number;
  scope: CallScope;
  requestId?: string | undefined;
}

const DATA_URL = /^data:image\/[\w.+-]+;base64,/i;

/** Fetches the bytes behind an image link (http, https, or a base64 data URL). */
export async function downloadImage(url: string, opts: DownloadOptions): Promise<Buffer> {
  if (DATA_URL.test(url)) return decodeBase64(url.replace(DATA_URL, ''), opts.maxBytes, opts.requestId);
  if (!/^https?:\/\//i.test(url)) throw broken('gateway returned an image link that is not http(s)', opts.requestId);
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = AbortSignal.any([opts.scope.signal, timeout]);
  try {
    const res = await opts.http.fetchLink(url, { accept: 'image/*' }, signal, opts.scope);
    if (res.statusCode < 200 || res.statusCode >= 300) {
      await res.body.dump();
      throw broken(`image link answered ${res.statusCode}`, opts.requestId);
    }
    return await opts.http.readCapped(res, opts.maxBytes, opts.scope, opts.requestId);
  } catch (err) {
    if (opts.scope.signal.aborted) throw opts.scope.abortError(opts.requestId);
    if (timeout.aborted) {
      throw new GatewayTimeoutError(`image download passed ${opts.timeoutMs} ms`, { requestId: opts.requestId, cause: err });
    }
    if (err instanceof GatewayResponseError) throw err;
    const refused = refusal(err);
    if (refused) throw broken(`image link refused: ${refused.message}`, opts.requestId, refused);
    throw broken('image link could not be downloaded', opts.requestId, toGatewayError(err, opts.scope, opts.requestId));
  }
}

function broken(message: string, requestId: string | undefined, cause?: unknown): GatewayResponseError {
  return new GatewayResponseError(message, { category: 'gateway_failure', code: 'image_download_failed', requestId, cause });
}

/** The link policy's refusal, thrown by the check or, from the connection's lookup, inside undici's error. */
function refusal(err: unknown): LinkRefusedError | undefined {
  for (let cause: unknown = err; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof LinkRefusedError) return cause;
  }
  return undefined;
}
