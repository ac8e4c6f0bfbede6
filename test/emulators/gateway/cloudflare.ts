/**
 * Cloudflare in front of a relay. When the origin cannot answer, Cloudflare answers itself: 521 (web server is
 * down), 522 (connection timed out), 523 (origin is unreachable), and 524 (a timeout occurred: the origin sent no
 * response headers within 100 s). Those answers are Cloudflare's own: an HTML error page, `server: cloudflare`, a
 * `cf-ray` id, and none of the origin's headers (no request id of the relay's). The `origin_52x` presets are the same
 * statuses written by a plain origin with no Cloudflare in front (a relay passing on its upstream's status, new-api's
 * JSON body, no Cloudflare headers), which a client must not take for Cloudflare's.
 *
 * A gpt-image-2 image at high quality takes about 126 s, so behind Cloudflare it always ends in a 524 while the
 * upstream goes on and bills (https://github.com/QuantumNous/new-api/issues/4921; some relays cap at about 90 s).
 *
 * @see https://developers.cloudflare.com/support/troubleshooting/http-status-codes/cloudflare-5xx-errors/
 */
import { createHash } from 'node:crypto';
import type { ErrorPresetDefinition, GatewayErrorObject, PresetContext } from './error-presets.js';

/** The Cloudflare statuses the emulator plays, with the title and explanation of Cloudflare's page for each. */
const PAGES = {
  521: { title: 'Web server is down', what: 'The web server is not returning a connection. As a result, the web page is not displaying.' },
  522: {
    title: 'Connection timed out',
    what: "The initial connection between Cloudflare's network and the origin web server timed out. As a result, the web page can not be displayed.",
  },
  523: { title: 'Origin is unreachable', what: 'Cloudflare is unable to reach the origin web server.' },
  524: { title: 'A timeout occurred', what: 'The origin web server timed out responding to this request.' },
} as const;

type CloudflareStatus = keyof typeof PAGES;

/** The host Cloudflare's pages name (the relay's public domain). */
const RELAY_HOST = 'api.relay.example';

/** Cloudflare's Ray id of an answer: 16 hex digits and the data centre (stable per request id). */
export function rayOf(requestId: string): string {
  return `${createHash('sha256').update(requestId).digest('hex').slice(0, 16)}-FRA`;
}

/** The headers Cloudflare adds to every answer it proxies (it replaces the origin's `server`). */
export function proxiedHeaders(requestId: string): Record<string, string> {
  return { server: 'cloudflare', 'cf-ray': rayOf(requestId) };
}

/** The headers of an error page Cloudflare writes itself. */
function pageHeaders(ctx: PresetContext): Record<string, string> {
  return {
    ...proxiedHeaders(ctx.requestId),
    'cache-control': 'private, max-age=0, no-store, no-cache, must-revalidate, post-check=0, pre-check=0',
    expires: 'Thu, 01 Jan 1970 00:00:01 GMT',
    'referrer-policy': 'same-origin',
    'x-frame-options': 'SAMEORIGIN',
  };
}

/** Cloudflare's error page for a status, shortened (its styles and scripts left out), as it reaches an API client. */
export function cloudflarePage(status: CloudflareStatus, requestId: string): string {
  const { title, what } = PAGES[status];
  return [
    '<!DOCTYPE html>',
    '<!--[if lt IE 7]> <html class="no-js ie6 oldie" lang="en-US"> <![endif]-->',
    '<!--[if gt IE 8]><!--> <html class="no-js" lang="en-US"> <!--<![endif]-->',
    '<head>',
    `<title>${RELAY_HOST} | ${status}: ${title}</title>`,
    '<meta charset="UTF-8" />',
    '<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />',
    '<meta name="robots" content="noindex, nofollow" />',
    '</head>',
    '<body>',
    '<div id="cf-wrapper">',
    '<div id="cf-error-details" class="p-0">',
    '<header class="mx-auto pt-10 lg:pt-6 lg:px-8 w-240 lg:w-full mb-8">',
    `<h1 class="inline-block sm:block sm:mb-2 font-light text-60 lg:text-4xl text-black-dark leading-tight mr-2"><span class="inline-block">${title}</span><span class="code-label">Error code ${status}</span></h1>`,
    `<div>Visit <a href="https://www.cloudflare.com/5xx-error-landing?utm_source=errorcode_${status}&utm_campaign=${RELAY_HOST}" target="_blank" rel="noopener noreferrer">cloudflare.com</a> for more information.</div>`,
    '</header>',
    `<div class="cf-section cf-wrapper"><h2>What happened?</h2><p>${what}</p></div>`,
    `<div class="cf-error-footer cf-wrapper"><p><span class="cf-footer-item">Cloudflare Ray ID: <strong class="font-semibold">${rayOf(requestId).split('-')[0] ?? ''}</strong></span></p></div>`,
    '</div>',
    '</div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function cloudflare(status: CloudflareStatus): ErrorPresetDefinition {
  return {
    status,
    code: undefined,
    en: () => null,
    rawBody: { contentType: 'text/html; charset=UTF-8', text: (ctx) => cloudflarePage(status, ctx.requestId) },
    headers: pageHeaders,
    proxied: true,
  };
}

function origin(status: number): ErrorPresetDefinition {
  // one-api/new-api RelayErrorHandler passing on an upstream status it has no message for (image-gateway.md §4.1).
  const body = (): GatewayErrorObject => ({
    message: `bad response status code ${status}`,
    type: 'upstream_error',
    param: String(status),
    code: 'bad_response_status_code',
  });
  return { status, code: 'bad_response_status_code', en: body };
}

/** Cloudflare's own answers, and the same statuses from a plain origin. */
export const CLOUDFLARE_PRESETS = {
  cloudflare_521: cloudflare(521),
  cloudflare_522: cloudflare(522),
  cloudflare_523: cloudflare(523),
  cloudflare_524: cloudflare(524),
  origin_521: origin(521),
  origin_522: origin(522),
  origin_523: origin(523),
} satisfies Record<string, ErrorPresetDefinition>;
