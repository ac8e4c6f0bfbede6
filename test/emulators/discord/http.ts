/**
 * The REST request as routes see it, and the route table shape.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RestResult } from './rules.js';
import type { RecordedFile, RecordedRequest, SentCallback, SentMessage } from './types.js';

export interface RestRequest {
  method: string;
  /** Path after /api/v10, as sent (still URL-encoded), without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  contentType: string;
  /** The parsed JSON (or payload_json) as sent; read it through messageBody / callbackBody. */
  payload: unknown;
  files: RecordedFile[];
  /** performance.now() when the request arrived. */
  receivedAt: number;
  /**
   * Emulator-clock time when the request arrived. Deadlines are judged at arrival, so the emulator's own work
   * (body parsing, the first compile of a spec schema) never counts against the bot.
   */
  clockAt: number;
}

export interface Route {
  method: string;
  /** Matched against the decoded path; capture groups become `params`. */
  pattern: RegExp;
  /** 'bot' routes require `Authorization: Bot <token>`; interaction routes carry no Authorization header. */
  auth: 'bot' | 'none';
  handle(req: RestRequest, params: string[]): RestResult | Promise<RestResult>;
  /** Records the exchange (also for requests rejected before `handle`, e.g. spec violations). */
  record?(req: RestRequest, params: string[], result: RestResult): void;
}

/** The RecordedRequest shape shared by every recording list. */
export function toRecorded(req: RestRequest, result: RestResult): RecordedRequest {
  const body = result.body as { code?: unknown } | undefined;
  return {
    method: req.method,
    path: req.path,
    receivedAt: req.receivedAt,
    status: result.status,
    errorCode: result.status >= 400 && typeof body?.code === 'number' ? body.code : undefined,
    payload: messageBody(req),
    files: req.files,
  };
}

/** The body of a message route (create, edit, follow-up) as the bot sent it: typed at this boundary, judged by the rules. */
export function messageBody(req: RestRequest): SentMessage | undefined {
  return req.payload as SentMessage | undefined;
}

/** The body of an interaction callback as the bot sent it: typed at this boundary, judged by checkCallback. */
export function callbackBody(req: RestRequest): SentCallback | undefined {
  return req.payload as SentCallback | undefined;
}
