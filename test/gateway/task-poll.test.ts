/**
 * The task poll loop with a scripted fetch: what it retries between polls, how long it waits, and that whatever it
 * gives up with is never something the client would answer with a second POST.
 */
import { describe, expect, it } from 'vitest';
import { CallScope } from '../../src/gateway/call-scope.js';
import { GatewayConnectionError, GatewayHttpError, GatewayTaskError } from '../../src/gateway/errors.js';
import { isRetryable } from '../../src/gateway/retry.js';
import { pollTask, type PolledAnswer } from '../../src/gateway/task-poll.js';
import type { TaskRef } from '../../src/gateway/task-schemas.js';
import { failure, recordingSleep, silentLogger } from './fixtures.js';

const TASK: TaskRef = { kind: 'generation.task', id: 'task_1', path: '/images/generations/task_1', phase: 'queued' };
const pending = (status: string): PolledAnswer => ({ value: { object: 'generation.task', id: 'task_1', status }, images: [] });
const done: PolledAnswer = { value: { object: 'generation.task', id: 'task_1', status: 'completed', data: [{ url: 'https://x/1.png' }] }, images: [] };

/** Polls with answers (or errors) taken in order. */
async function run(script: (PolledAnswer | Error)[]) {
  const { sleep, waits } = recordingSleep();
  const paths: string[] = [];
  const fetch = (path: string) => {
    paths.push(path);
    const next = script.shift();
    if (!next) throw new Error('script ran out');
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
  };
  const scope = new CallScope(60_000);
  try {
    const outcome = pollTask({ fetch, intervalMs: 1_000, sleep, log: silentLogger }, TASK, scope, 'req-1');
    return { outcome: await outcome.catch((err: unknown) => err), waits, paths };
  } finally {
    scope.dispose();
  }
}

const unavailable = (headers: Record<string, string> = {}) => GatewayHttpError.fromResponse(503, '{"error":{"message":"busy"}}', headers);

describe('pollTask', () => {
  it('waits 1 s, then half as long again each poll, up to 10 s', async () => {
    const { outcome, waits } = await run([...Array.from({ length: 8 }, () => pending('in_progress')), done]);
    expect(outcome).toMatchObject({ items: [{ url: 'https://x/1.png' }] });
    expect(waits).toEqual([1000, 1500, 2250, 3375, 5063, 7595, 10_000, 10_000, 10_000]);
  });

  it('polls again after a 503 or a lost connection, honouring Retry-After', async () => {
    const lost = new GatewayConnectionError('reset', { beforeSend: false });
    const { outcome, waits } = await run([unavailable({ 'retry-after': '4' }), lost, done]);
    expect(outcome).toMatchObject({ items: [{ url: 'https://x/1.png' }] });
    expect(waits).toEqual([1000, 4000, 6000]);
  });

  it('gives up after repeated poll failures with an error no POST retry acts on', async () => {
    const { outcome, paths } = await run([unavailable(), unavailable(), unavailable(), unavailable()]);
    expect(outcome).toBeInstanceOf(GatewayTaskError);
    expect(isRetryable(outcome as GatewayTaskError)).toBe(false);
    expect(outcome).toMatchObject({ category: 'gateway_failure', status: 503, requestId: 'req-1' });
    expect(paths).toEqual(Array.from({ length: 4 }, () => TASK.path));
  });

  it('gives up at once on a poll refused for good (404)', async () => {
    const gone = GatewayHttpError.fromResponse(404, '{"error":{"message":"No task found","code":"task_not_found"}}', {});
    const { outcome, paths } = await run([gone]);
    expect(await failure(Promise.reject(outcome as Error))).toMatchObject({ name: 'GatewayTaskError', category: 'gateway_failure', status: 404 });
    expect(paths).toHaveLength(1);
  });

  it('reads a failed task of the tasks API by its fail reason, a content refusal staying one', async () => {
    const { sleep } = recordingSleep();
    const answer: PolledAnswer = {
      value: { code: 'success', data: { task_id: 't', status: 'FAILURE', fail_reason: 'Your request was rejected by the safety system' } },
      images: [],
    };
    const scope = new CallScope(60_000);
    const task: TaskRef = { kind: 'tasks-api', id: 't', path: '/tasks/t', phase: 'queued' };
    const err = await failure(pollTask({ fetch: () => Promise.resolve(answer), intervalMs: 1, sleep, log: silentLogger }, task, scope, undefined));
    scope.dispose();
    expect(err).toMatchObject({ name: 'GatewayTaskError', category: 'content_rejected' });
  });
});
