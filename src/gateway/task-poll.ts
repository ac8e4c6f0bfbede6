/**
 * Polls a task a relay answered an image POST with (task-schemas.ts) until it is done, failed or out of time. Polls
 * are GETs: the POST that may bill is never sent again, so nothing thrown from here is retried or recovered by a
 * second POST (failures leave as GatewayTaskError, GatewayResponseError or the scope's timeout or cancellation).
 */
import type pino from 'pino';
import type { CallScope } from './call-scope.js';
import { classifyFailure } from './classify.js';
import { GatewayConnectionError, GatewayHttpError, GatewayResponseError, GatewayTaskError, type GatewayError, type GatewayErrorCategory } from './errors.js';
import { toGatewayError } from './http-errors.js';
import type { ImageItem, ImagesUsage } from './schemas.js';
import { readTaskState, type TaskPhase, type TaskRef } from './task-schemas.js';

/** The first wait before a poll, and the longest: waits grow by half each poll. */
const POLL = { maxMs: 10_000, growth: 1.5 } as const;
/** Failed polls in a row (429, 5xx, connection) tolerated before the task is given up. */
const MAX_POLL_FAILURES = 3;
/** Longest Retry-After honoured between polls (the deadline bounds it anyway). */
const RETRY_AFTER_CAP_MS = 30_000;

/** A poll's answer, its JSON parsed and its `b64_json` values decoded (placeholders in `value` point into `images`). */
export interface PolledAnswer {
  value: unknown;
  images: readonly Buffer[];
}

/** What polling needs from the exchange. */
export interface TaskPollOptions {
  /** GETs `path` from the gateway with the key and reads its JSON answer; rejects with a GatewayError. */
  fetch(path: string): Promise<PolledAnswer>;
  /** The first wait between polls; later waits grow by half, up to 10 s (or this, when longer). */
  intervalMs: number;
  /** Must reject when the signal aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  log: pino.Logger;
  /** Told when the task's phase changes (first with its phase at submission). */
  onStatus?: ((phase: TaskPhase) => void) | undefined;
}

/** A completed task's images, as items of its last poll answer. */
export interface TaskOutcome {
  items: ImageItem[];
  usage?: ImagesUsage | undefined;
  images: readonly Buffer[];
}

/** Polls until the task is done; rejects with a GatewayError. `requestId` is the POST's, for the errors. */
export async function pollTask(options: TaskPollOptions, task: TaskRef, scope: CallScope, requestId: string | undefined): Promise<TaskOutcome> {
  const log = options.log.child({ taskId: task.id, taskKind: task.kind });
  log.info({ requestId }, 'gateway answered with a task');
  let phase = task.phase;
  options.onStatus?.(phase);
  let wait = options.intervalMs;
  let failures = 0;
  for (let poll = 1; ; poll += 1) {
    await pause(options, Math.min(wait, scope.remainingMs()), scope, requestId);
    wait = Math.min(Math.round(wait * POLL.growth), Math.max(POLL.maxMs, options.intervalMs));
    let answer: PolledAnswer;
    try {
      answer = await options.fetch(task.path);
      failures = 0;
    } catch (err) {
      const error = toGatewayError(err, scope, requestId);
      failures += 1;
      if (scope.signal.aborted || !isTransient(error) || failures > MAX_POLL_FAILURES) throw giveUp(error, scope, requestId);
      log.warn({ err: error, status: error.status, poll }, 'gateway task poll retried');
      const retryAfterMs = error instanceof GatewayHttpError ? error.retryAfterMs : undefined;
      if (retryAfterMs !== undefined) wait = Math.min(retryAfterMs, RETRY_AFTER_CAP_MS);
      continue;
    }
    const state = readTaskState(task.kind, answer.value);
    log.debug({ poll, state: state.state }, 'gateway task polled');
    switch (state.state) {
      case 'pending':
        if (state.phase !== phase) options.onStatus?.((phase = state.phase));
        break;
      case 'done':
        return { items: state.items, usage: state.usage, images: answer.images };
      case 'failed':
        throw taskFailed(state.failure, requestId);
      case 'unknown':
        throw new GatewayResponseError(`gateway task answer unreadable: ${state.detail}`, {
          category: 'gateway_failure',
          code: 'unknown_task_answer',
          requestId,
        });
    }
  }
}

async function pause(options: TaskPollOptions, ms: number, scope: CallScope, requestId: string | undefined): Promise<void> {
  scope.throwIfEnded();
  await options.sleep(ms, scope.signal).catch((cause: unknown) => {
    throw toGatewayError(cause, scope, requestId);
  });
  scope.throwIfEnded();
}

/** Worth another poll: the gateway was busy or out of reach, and a GET may be sent again. */
function isTransient(error: GatewayError): boolean {
  if (error instanceof GatewayConnectionError) return true;
  if (!(error instanceof GatewayHttpError)) return false;
  if (error.status === 429) return error.category === 'busy';
  return error.status === 502 || error.status === 503 || error.status === 504;
}

/** Categories a failed poll keeps; anything else is the gateway failing this task. */
const KEPT: ReadonlySet<GatewayErrorCategory> = new Set(['invalid_key', 'balance_exhausted', 'busy', 'timed_out', 'cancelled']);

/** A poll failure as an error no POST retry or recovery acts on. */
function giveUp(error: GatewayError, scope: CallScope, requestId: string | undefined): GatewayError {
  if (scope.signal.aborted) return scope.abortError(requestId);
  if (error instanceof GatewayResponseError) return error;
  const category = KEPT.has(error.category) ? error.category : 'gateway_failure';
  return new GatewayTaskError(`gateway task could not be polled: ${error.message}`, {
    category,
    status: error.status,
    code: error.code,
    requestId,
    cause: error,
  });
}

/** A failed task: refused content stays a refusal (classify.ts reads the reason), anything else is a gateway failure. */
function taskFailed(failure: { message: string; code?: string | undefined; type?: string | undefined }, requestId: string | undefined): GatewayTaskError {
  const category = classifyFailure(failure) === 'content_rejected' ? 'content_rejected' : 'gateway_failure';
  const reason = failure.message.slice(0, 300) || '(no reason given)';
  return new GatewayTaskError(`gateway task failed: ${reason}`, { category, code: failure.code ?? 'task_failed', requestId });
}
