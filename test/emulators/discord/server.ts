/**
 * The HTTP side: CDN GETs, then /api/v10 requests through failure injection → routing → bot auth → body parsing →
 * spec validation → route handler → recording.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { type RestRequest, type Route, toRecorded } from './http.js';
import { BodyParseError, parseBody, startMultipartParse, type ParsedBody, type StreamingBodyParse } from './multipart.js';
import { Errors, type RestResult } from './rules.js';
import { checkAgainstSpec } from './spec-check.js';
import type { EmulatorState } from './state.js';
import type { FailureMatch, FailureResponse } from './types.js';

const API_PREFIX = '/api/v10';

interface InjectedFailure {
  match: FailureMatch;
  response: FailureResponse;
  remaining: number;
}

interface PendingHold {
  match: FailureMatch;
  arrive: () => void;
  released: Promise<void>;
}

/** A request held before it is processed: `arrived` resolves when it comes in; `release` lets it through. */
export interface HeldRestRequest {
  arrived: Promise<void>;
  release(): void;
}

/** What {@link RestServer.nextStart} resolves with: a request whose head has arrived, its body maybe not yet. */
export interface StartedRestRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

interface StartWatch {
  match: FailureMatch;
  started: (request: StartedRestRequest) => void;
}

/** Routes REST requests; owns failure injection. */
export class RestServer {
  private readonly state: EmulatorState;
  private readonly routes: readonly Route[];
  private readonly failures: InjectedFailure[] = [];
  private readonly holds: PendingHold[] = [];
  private readonly startWatches: StartWatch[] = [];

  constructor(state: EmulatorState, routes: readonly Route[]) {
    this.state = state;
    this.routes = routes;
  }

  /** Queues a failure for the next `times` requests matching (method, path after /api/v10). */
  failNext(match: FailureMatch, response: FailureResponse, times = 1): void {
    this.failures.push({ match, response, remaining: times });
  }

  /**
   * Holds the next request matching (method, path after /api/v10) before it is processed, as a slow network
   * would: nothing of it takes effect (an acknowledgement is not yet an acknowledgement) until it is released.
   */
  holdNext(match: FailureMatch): HeldRestRequest {
    let arrive!: () => void;
    let release!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.push({ match, arrive, released });
    return { arrived, release };
  }

  /**
   * Resolves when the head (request line and headers) of the next request matching (method, path after /api/v10)
   * arrives, before its body is read: shows that a client started an upload it has not finished.
   */
  nextStart(match: FailureMatch): Promise<StartedRestRequest> {
    return new Promise((started) => this.startWatches.push({ match, started }));
  }

  /** The node:http request listener. */
  readonly listener = (req: IncomingMessage, res: ServerResponse): void => {
    this.handle(req, res).catch((err: unknown) => {
      this.state.log(`internal error: ${String(err)}`);
      if (!res.headersSent) send(res, { status: 500, body: { message: '500: Internal Server Error', code: 0 } });
    });
  };

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAt = performance.now();
    const clockAt = this.state.clock.now();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = (req.method ?? 'GET').toUpperCase();
    if (method === 'GET' && this.state.cdn.serve(url.pathname, res)) return;
    // A multipart upload is parsed as it arrives; everything else once read.
    if (url.pathname.startsWith(`${API_PREFIX}/`)) {
      const path = url.pathname.slice(API_PREFIX.length);
      this.takeMatching(this.startWatches, method, path, req.headers['content-type'])?.started({ method, path, headers: req.headers });
    }
    const streamed = startMultipartParse(req.headers['content-type']);
    const { raw, length } = await readBody(req, streamed);
    if (!url.pathname.startsWith(`${API_PREFIX}/`)) {
      send(res, Errors.notFound());
      return;
    }
    const path = url.pathname.slice(API_PREFIX.length);
    const request: RestRequest = {
      method,
      path,
      query: url.searchParams,
      headers: req.headers,
      contentType: '',
      payload: undefined,
      files: [],
      receivedAt,
      clockAt,
    };
    const hold = this.takeMatching(this.holds, method, path, req.headers['content-type']);
    if (hold) {
      hold.arrive();
      await hold.released;
    }
    const failure = this.takeFailure(method, path, req.headers['content-type']);
    if (failure) {
      const injected = failureResult(failure);
      this.state.record(toRecorded(request, injected));
      if (failure.delayMs !== undefined) await sleep(failure.delayMs);
      if (failure.dropConnection) req.socket.destroy();
      else send(res, injected);
      return;
    }
    const result = await this.route(request, raw, length > 0 ? streamed?.result : undefined);
    this.state.record(toRecorded(request, result));
    if (result.status >= 400) this.state.log(`${method} ${path} → ${result.status} ${JSON.stringify(result.body)}`);
    send(res, result);
  }

  private async route(request: RestRequest, raw: Buffer, parsed: Promise<ParsedBody> | undefined): Promise<RestResult> {
    const decoded = decodeURIComponent(request.path);
    let found: { route: Route; params: string[] } | undefined;
    for (const route of this.routes) {
      const match = route.method === request.method ? route.pattern.exec(decoded) : null;
      if (match) {
        // An optional group that did not take part is undefined at run time, whatever RegExpExecArray's type says.
        found = { route, params: match.slice(1).map((p: string | undefined) => p ?? '') };
        break;
      }
    }
    if (!found) return Errors.notFound();
    const { route, params } = found;
    if (route.auth === 'bot' && request.headers.authorization !== `Bot ${this.state.options.token}`) return Errors.unauthorized();
    let result = await this.parseAndValidate(request, raw, parsed);
    result ??= await route.handle(request, params);
    route.record?.(request, params, result);
    return result;
  }

  /** Fills payload/files; returns the 400 for an unparsable body or a spec violation. */
  private async parseAndValidate(request: RestRequest, raw: Buffer, streamed: Promise<ParsedBody> | undefined): Promise<RestResult | undefined> {
    try {
      const parsed = await (streamed ?? parseBody(raw, request.headers['content-type']));
      Object.assign(request, parsed);
    } catch (err) {
      if (err instanceof BodyParseError) return Errors.invalidBody(err.code, err.message);
      throw err;
    }
    if (request.payload === undefined || !['POST', 'PUT', 'PATCH'].includes(request.method)) return undefined;
    const violations = checkAgainstSpec(request.method, request.path, request.contentType, request.payload, request.files);
    if (violations.length === 0) return undefined;
    for (const violation of violations) {
      this.state.specViolations.push(`${request.method} ${request.path}: ${violation}`);
      this.state.log(`spec violation: ${request.method} ${request.path}: ${violation}`);
    }
    return Errors.invalidForm(['_spec'], 'SPEC_VIOLATION', violations.join('; '));
  }

  private takeMatching<T extends { match: FailureMatch }>(list: T[], method: string, path: string, contentType: string | undefined): T | undefined {
    const index = list.findIndex((x) => matches(x.match, method, path, contentType));
    return index < 0 ? undefined : list.splice(index, 1)[0];
  }

  private takeFailure(method: string, path: string, contentType: string | undefined): FailureResponse | undefined {
    const failure = this.failures.find((f) => matches(f.match, method, path, contentType));
    if (!failure) return undefined;
    failure.remaining -= 1;
    if (failure.remaining <= 0) this.failures.splice(this.failures.indexOf(failure), 1);
    return failure.response;
  }
}

/** Whether a request (method, path after /api/v10, content type) is the one a hold or an injected failure is for. */
function matches(match: FailureMatch, method: string, path: string, contentType: string | undefined): boolean {
  return (match.method ?? method).toUpperCase() === method && match.path.test(path) && (match.contentType?.test(contentType ?? '') ?? true);
}

/** A 429 gets Discord's rate-limit headers and body (§1.10, §6.6); other statuses a generic error body. */
function failureResult(response: FailureResponse): RestResult {
  const headers: Record<string, string> = {};
  let body = response.body;
  if (response.status === 429) {
    const retryAfter = response.retryAfter ?? 0.05;
    Object.assign(headers, {
      'retry-after': String(retryAfter),
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Date.now() / 1000 + retryAfter),
      'x-ratelimit-reset-after': String(retryAfter),
      'x-ratelimit-bucket': 'emulator-bucket',
      'x-ratelimit-scope': 'user',
    });
    body ??= { message: 'You are being rate limited.', retry_after: retryAfter, global: false };
  } else if (response.retryAfter !== undefined) {
    headers['retry-after'] = String(response.retryAfter);
  }
  body ??= { message: `${response.status}: Injected failure`, code: 0 };
  return { status: response.status, body, headers: { ...headers, ...response.headers } };
}

/** An unref'd sleep, so a delayed injected response never keeps the process alive after close(). */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function send(res: ServerResponse, result: RestResult): void {
  const headers = { ...result.headers };
  if (result.status === 204 || result.body === undefined) {
    res.writeHead(result.status, headers).end();
    return;
  }
  const text = JSON.stringify(result.body);
  res.writeHead(result.status, { 'content-type': 'application/json', ...headers }).end(text);
}

/** Reads the whole body, or hands each chunk to a streaming parse (then `raw` stays empty and only `length` counts). */
function readBody(req: IncomingMessage, parse: StreamingBodyParse | undefined): Promise<{ raw: Buffer; length: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    req.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (parse) parse.write(chunk);
      else chunks.push(chunk);
    });
    req.on('end', () => {
      parse?.end();
      resolve({ raw: Buffer.concat(chunks), length });
    });
    req.on('error', reject);
  });
}
