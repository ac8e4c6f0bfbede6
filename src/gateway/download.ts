/**
 * Downloads `url` image items. GPT image models answer in base64, but relays and dall-e return links; a link is
 * fetched with its own timeout and the response size cap, without our API key, and only where the link policy
 * allows (link-policy.ts: the gateway's host or GATEWAY_URL_HOSTS, never an internal address unless listed).
 *
 * @see ../../../shared/docs/image-gateway.md §4.2.3 (relays return url items; downloads can be slow)
 */
import type { AnswerMemory } from '../ports/image-gateway.js';
import type { CallScope } from './call-scope.js';
import { GatewayResponseError, GatewayTimeoutError } from './errors.js';
import { decodeBase64 } from './decode.js';
import { declaredLength, discard, type GatewayHttp, type GatewayResponse } from './http.js';
import { toGatewayError, tooLarge } from './http-errors.js';
import { LinkRefusedError } from './link-policy.js';

/** How to download one answer's links. */
export interface DownloadOptions {
  http: GatewayHttp;
  /** The response cap: what one answer's linked images may weigh together. */
  maxBytes: number;
  /** For opening the links, and again for reading them once there is room. */
  timeoutMs: number;
  scope: CallScope;
  requestId?: string | undefined;
  /** The job's room in the memory budget; without it the links are read up to the cap. */
  memory?: AnswerMemory | undefined;
}

const DATA_URL = /^data:image\/[\w.+-]+;base64,/i;

/** One link once opened: its response waiting to be read, or a data URL's bytes. */
type Opened = { res: GatewayResponse; declared: number | undefined } | { bytes: Buffer };

/**
 * Fetches the images behind one answer's links (http, https, or base64 data URLs), in answer order. Every link is
 * opened first (status and headers); then room for what they declare together is admitted from the memory budget
 * in one step (the rest of the cap for a link without Content-Length), and only then are their bodies read, none
 * beyond its share. So a job never waits for room while it holds linked images, and never reads more than it has room for.
 */
export async function downloadLinks(urls: readonly string[], opts: DownloadOptions): Promise<Buffer[]> {
  const opened: Opened[] = [];
  const timer = new PhaseTimer(opts.timeoutMs, opts.scope.signal);
  try {
    await phase(timer, opts, 'opening', () => Promise.all(urls.map(async (url, i) => (opened[i] = await open(url, opts, timer.signal)))));
    const responses = opened.filter((o): o is Extract<Opened, { res: GatewayResponse }> => 'res' in o);
    const known = responses.reduce((total, o) => total + (o.declared ?? 0), 0);
    const unknown = responses.filter((o) => o.declared === undefined).length;
    if (known > opts.maxBytes) throw tooLarge(opts.maxBytes, opts.requestId);
    const asked = unknown > 0 ? opts.maxBytes : known;
    const room = opts.memory ? Math.min(await opts.memory.admit(asked), asked) : asked;
    if (room < known) throw tooLarge(room, opts.requestId);
    const share = unknown > 0 ? Math.floor((room - known) / unknown) : 0;
    return await phase(timer, opts, 'reading', () =>
      Promise.all(opened.map(async (o) => ('bytes' in o ? o.bytes : opts.http.readCapped(o.res, o.declared ?? share, opts.scope, opts.requestId)))),
    );
  } catch (err) {
    for (const o of opened) if ('res' in o) discard(o.res);
    throw err;
  }
}

async function open(url: string, opts: DownloadOptions, signal: AbortSignal): Promise<Opened> {
  if (DATA_URL.test(url)) return { bytes: decodeBase64(url.replace(DATA_URL, ''), opts.maxBytes, opts.requestId) };
  if (!/^https?:\/\//i.test(url)) throw broken('gateway returned an image link that is not http(s)', opts.requestId);
  const res = await opts.http.fetchLink(url, { accept: 'image/*' }, signal, opts.scope);
  if (res.statusCode < 200 || res.statusCode >= 300) {
    await res.body.dump();
    throw broken(`image link answered ${res.statusCode}`, opts.requestId);
  }
  return { res, declared: declaredLength(res) };
}

/** The links' signal, aborted when a phase passes its timeout; waiting for room in between is not timed. */
class PhaseTimer {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly ms: number;
  private timer: NodeJS.Timeout | undefined;
  passed = false;

  constructor(ms: number, scope: AbortSignal) {
    this.ms = ms;
    this.signal = AbortSignal.any([scope, this.controller.signal]);
  }

  arm(): void {
    this.timer = setTimeout(() => {
      this.passed = true;
      this.controller.abort(new Error('image download timed out'));
    }, this.ms);
  }

  disarm(): void {
    clearTimeout(this.timer);
  }
}

/** Runs one phase of the downloads under the timer, mapping failures to GatewayErrors. */
async function phase<T>(timer: PhaseTimer, opts: DownloadOptions, name: string, run: () => Promise<T>): Promise<T> {
  timer.arm();
  try {
    return await run();
  } catch (err) {
    if (opts.scope.signal.aborted) throw opts.scope.abortError(opts.requestId);
    if (timer.passed) throw new GatewayTimeoutError(`image download passed ${opts.timeoutMs} ms while ${name}`, { requestId: opts.requestId, cause: err });
    if (err instanceof GatewayResponseError) throw err;
    const refused = refusal(err);
    if (refused) throw broken(`image link refused: ${refused.message}`, opts.requestId, refused);
    throw broken('image link could not be downloaded', opts.requestId, toGatewayError(err, opts.scope, opts.requestId));
  } finally {
    timer.disarm();
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
