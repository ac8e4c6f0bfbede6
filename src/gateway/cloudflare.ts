/**
 * Cloudflare in front of a gateway. Cloudflare adds `server: cloudflare` and a `cf-ray` id to every answer it
 * proxies, and answers 521, 522, 523 and 524 itself when the origin cannot (an HTML page, none of the gateway's
 * headers). Only both headers together count: a gateway passing on its upstream's 52x, or a proxy that merely
 * imitates the status, carries neither.
 *
 * @see https://developers.cloudflare.com/support/troubleshooting/http-status-codes/cloudflare-5xx-errors/
 */
import { headerValue, type ResponseHeaders } from './request-id.js';

/** The proxy whose headers an answer carries: Cloudflare's, or none known. */
export type GatewayProxy = 'cloudflare';

/** `cloudflare` when the answer carries both `cf-ray` and `server: cloudflare`; otherwise undefined. */
export function proxyOf(headers: ResponseHeaders): GatewayProxy | undefined {
  const server = headerValue(headers, 'server')?.trim().toLowerCase();
  return server === 'cloudflare' && headerValue(headers, 'cf-ray') !== undefined ? 'cloudflare' : undefined;
}
