/**
 * The gateway's HTTP: one instance per client owns the base URL, the API key (the only place its header, Bearer
 * or Azure's `api-key`, is built), the undici dispatcher, capped body reads and the per-turn byte budget those reads share.
 *
 * @see https://undici.nodejs.org/#/docs/api/Dispatcher?id=dispatcherrequestoptions-callback
 */
import { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import type { CallScope } from './call-scope.js';
import { toGatewayError, tooLarge } from './http-errors.js';
import { LinkPolicy } from './link-policy.js';
import { TurnBudget } from './turn-budget.js';
import { processGarbage } from '../garbage.js';

/** A response as undici's request() returns it. */
export type GatewayResponse = Dispatcher.ResponseData;

/** A request to the gateway itself: `path` is appended to the base URL and the key is sent. */
export interface GatewayRequest {
  method: 'GET' | 'POST';
  /** Starts with a slash, e.g. `/images/generations`. */
  path: string;
  headers: Record<string, string>;
  /** JSON text, or the chunks of a multipart body (sent in order, without copying them together). */
  body?: string | readonly Uint8Array[] | undefined;
}

/** Options of {@link GatewayHttp}. */
export interface GatewayHttpOptions {
  /** Base URL including the version segment; a trailing slash is dropped. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` (or as `api-key`, see keyHeader) to the gateway only; never logged. */
  apiKey: string;
  /** The header the key goes in: `authorization` (Bearer) or Azure's `api-key`. @default 'authorization' */
  keyHeader?: 'authorization' | 'api-key' | undefined;
  /** The undici Agent from createGatewayAgent (connect, header and body timeouts live there). */
  dispatcher: Dispatcher;
  /** Body bytes this client's readers together handle per event-loop turn. @default TURN_BYTES (1 MiB) */
  turnBytes?: number | undefined;
  /**
   * Where `url` image items may come from, and the dispatcher that fetches them (an Agent whose lookup is the
   * policy's). @default the gateway's own host only, over `dispatcher`
   */
  links?: { policy: LinkPolicy; dispatcher: Dispatcher } | undefined;
}

/** See the module comment. */
export class GatewayHttp {
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly keyHeader: 'authorization' | 'api-key';
  private readonly dispatcher: Dispatcher;
  private readonly turns: TurnBudget;
  private readonly links: { policy: LinkPolicy; dispatcher: Dispatcher };

  constructor(options: GatewayHttpOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.keyHeader = options.keyHeader ?? 'authorization';
    this.dispatcher = options.dispatcher;
    this.turns = new TurnBudget(options.turnBytes);
    this.links = options.links ?? { policy: new LinkPolicy(this.baseUrl), dispatcher: options.dispatcher };
  }

  /** Sends one request to the gateway with the key; rejects with a GatewayError. */
  send(req: GatewayRequest, scope: CallScope): Promise<GatewayResponse> {
    const key = this.keyHeader === 'api-key' ? { 'api-key': this.apiKey } : { authorization: `Bearer ${this.apiKey}` };
    const headers = { ...req.headers, ...key };
    // A multipart body's chunks are streamed as they are, without a copy (objectMode off: each is a Buffer of bytes).
    const body = typeof req.body === 'string' || req.body === undefined ? (req.body ?? null) : Readable.from(req.body, { objectMode: false });
    return this.dispatch(`${this.baseUrl}${req.path}`, { method: req.method, headers, body, signal: scope.signal }, scope);
  }

  /**
   * GETs a link the gateway handed out (an image item's `url`), without the key, if the link policy allows it
   * (throws LinkRefusedError before any connection otherwise); redirects are not followed. `signal` may be
   * narrower than the scope's (a per-download timeout); rejects with a GatewayError.
   */
  fetchLink(url: string, headers: Record<string, string>, signal: AbortSignal, scope: CallScope): Promise<GatewayResponse> {
    this.links.policy.check(url);
    return this.dispatch(url, { method: 'GET', headers, signal }, scope, this.links.dispatcher);
  }

  /**
   * Reads a body into one Buffer, refusing more than `maxBytes` (checked against Content-Length first, then while
   * reading, so an oversized body is never held whole).
   */
  async readCapped(res: GatewayResponse, maxBytes: number, scope: CallScope, requestId?: string): Promise<Buffer> {
    const declared = declaredLength(res);
    if (declared === undefined || declared > maxBytes) {
      const chunks: Buffer[] = [];
      const total = await this.consumeCapped(res, maxBytes, scope, requestId, (chunk) => chunks.push(chunk));
      return Buffer.concat(chunks, total);
    }
    // Declared: read into one Buffer of that size, without a second copy (undici fails a body of another length).
    const bytes = Buffer.allocUnsafe(declared);
    let at = 0;
    await this.consumeCapped(res, declared, scope, requestId, (chunk) => {
      at += chunk.copy(bytes, at);
    });
    return bytes.subarray(0, at);
  }

  /**
   * Hands a body to `onChunk` chunk by chunk, refusing more than `maxBytes` like {@link readCapped}; resolves with
   * the byte count. Chunks are handed over within the per-turn budget, so consumers that work per chunk never hold
   * the event loop for long, however many bodies arrive together. `onChunk` must not throw (anything thrown is
   * reported as a connection failure).
   */
  async consumeCapped(
    res: GatewayResponse,
    maxBytes: number,
    scope: CallScope,
    requestId: string | undefined,
    onChunk: (chunk: Buffer) => void,
  ): Promise<number> {
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      discard(res);
      throw tooLarge(maxBytes, requestId);
    }
    let total = 0;
    try {
      for await (const chunk of res.body) {
        if (!Buffer.isBuffer(chunk)) continue;
        total += chunk.byteLength;
        if (total > maxBytes) {
          discard(res);
          throw tooLarge(maxBytes, requestId);
        }
        await this.turns.spend(chunk.byteLength);
        onChunk(chunk);
        processGarbage.chunksRead(chunk.byteLength);
      }
    } catch (err) {
      throw toGatewayError(err, scope, requestId);
    }
    return total;
  }

  private async dispatch(
    url: string,
    options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>,
    scope: CallScope,
    dispatcher: Dispatcher = this.dispatcher,
  ): Promise<GatewayResponse> {
    try {
      return await request(url, { ...options, dispatcher });
    } catch (err) {
      throw toGatewayError(err, scope);
    }
  }
}

/** Stops reading a body we will not use; undici reports the abort as an error event, which is expected here. */
/** Closes the connection under a body that will not be read. */
export function discard(res: GatewayResponse): void {
  res.body.on('error', () => undefined);
  res.body.destroy();
}

/** A response's Content-Length, when it declares a usable one. */
export function declaredLength(res: GatewayResponse): number | undefined {
  const header = res.headers['content-length'];
  const value = Number(Array.isArray(header) ? header[0] : header);
  return header !== undefined && Number.isFinite(value) && value >= 0 ? value : undefined;
}
