/**
 * The REST request as routes see it, and the route table shape.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RestResult } from './rules.js';
import type { RecordedFile } from './types.js';

export interface RestRequest {
  method: string;
  /** Path after /api/v10, as sent (still URL-encoded), without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  contentType: string;
  payload: any;
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
export function toRecorded(req: RestRequest, result: RestResult) {
  const body = result.body as { code?: unknown } | undefined;
  return {
    method: req.method,
    path: req.path,
    receivedAt: req.receivedAt,
    status: result.status,
    errorCode: result.status >= 400 && typeof body?.code === 'number' ? body.code : undefined,
    payload: req.payload,
    files: req.files,
  };
}
