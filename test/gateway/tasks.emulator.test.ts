/**
 * Task answers over real sockets: a relay that answers an image POST with a task to poll (both shapes), polled with
 * GETs until its images come, fail, or the deadline or the caller ends it.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from 'undici';
import { GatewayResponseError, GatewayTaskError } from '../../src/gateway/errors.js';
import type { GatewayClient, GatewayClientOptions } from '../../src/gateway/gateway-client.js';
import { startGatewayEmulator, type GatewayEmulator, type SuccessBehaviour } from '../emulators/gateway/index.js';
import { clientFor, failure } from './fixtures.js';
import { finalResult } from '../support/image-stream.js';

let gw: GatewayEmulator;
let agent: Agent;
let waits: number[];

async function setup(extra: Partial<GatewayClientOptions> = {}): Promise<GatewayClient> {
  gw = await startGatewayEmulator();
  const made = clientFor(gw, { taskPollMs: 100, ...extra });
  agent = made.agent;
  waits = made.waits;
  return made.client;
}

afterEach(async () => {
  expect(gw.specViolations).toEqual([]);
  await agent.close();
  await gw.close();
});

const SHAPES = ['generation.task', 'tasks-api', 'tasks-result'] as const;

describe.each(SHAPES)('a %s answer', (asTask) => {
  it.each([
    ['b64_json', false],
    ['url', true],
  ])('delivers the images of its %s items after polling, with one POST only', async (_items, urlItems) => {
    const client = await setup();
    gw.enqueue({ type: 'success', asTask, urlItems, taskPolls: 2 });
    const statuses: string[] = [];
    const result = await finalResult(client.generate({ prompt: 'p', n: 2, outputFormat: 'png' }, { stream: true, partialImages: 1 }), {
      taskStatus: (s) => statuses.push(s),
    });
    expect(result.images.map((i) => [i.format, i.width])).toEqual([
      ['png', 1024],
      ['png', 1024],
    ]);
    // APIMart's task results report no usage.
    if (asTask === 'tasks-result') expect(result.usage).toBeUndefined();
    else expect(result.usage?.totalTokens).toBeGreaterThan(0);
    expect(gw.imageRequests()).toHaveLength(1);
    // Two pending polls, then the one that carries the images.
    expect(gw.taskPolls()).toHaveLength(3);
    expect(gw.taskPolls().every((r) => r.headers['authorization'] === `Bearer ${gw.apiKey}`)).toBe(true);
    expect(statuses).toEqual(['queued', 'generating']);
    // Backoff between polls: the first wait, then half as long again each time.
    expect(waits).toEqual([100, 150, 225]);
    const downloads = gw.requests.filter((r) => r.path.startsWith('/files/'));
    // APIMart's results are links only, whatever was asked.
    expect(downloads).toHaveLength(urlItems || asTask === 'tasks-result' ? 2 : 0);
  });

  it.each<[NonNullable<SuccessBehaviour['taskEnd']>, string, string]>([
    ['failed', 'gateway_failure', 'GatewayTaskError'],
    ['moderated', 'content_rejected', 'GatewayTaskError'],
    ['unknown-status', 'gateway_failure', 'GatewayResponseError'],
  ])('fails a task that ends %s as %s, without a second POST', async (taskEnd, category, name) => {
    const client = await setup();
    gw.enqueue({ type: 'success', asTask, taskPolls: 1, taskEnd });
    const err = await failure(finalResult(client.generate({ prompt: 'p' })));
    expect(err).toMatchObject({ category, name });
    expect(err).toBeInstanceOf(taskEnd === 'unknown-status' ? GatewayResponseError : GatewayTaskError);
    expect(gw.imageRequests()).toHaveLength(1);
    expect(gw.taskPolls()).toHaveLength(2);
  });
});

describe("an APIMart task's result links", () => {
  it.each<[NonNullable<SuccessBehaviour['taskUrls']>, number]>([
    ['array', 3],
    ['string', 3],
  ])('are read as images whether each url is an %s, and fetched right after the last poll', async (taskUrls, n) => {
    const client = await setup();
    gw.enqueue({ type: 'success', asTask: 'tasks-result', taskUrls, taskPolls: 1 });
    const result = await finalResult(client.generate({ prompt: 'p', n, outputFormat: 'png' }));
    expect(result.images).toHaveLength(n);
    const polls = gw.requests.filter((r) => r.path.startsWith('/v1/tasks/'));
    const last = gw.requests.indexOf(polls.at(-1)!);
    // Nothing between the poll that handed out the links and their downloads: they are fetched at once.
    expect(gw.requests.slice(last + 1).map((r) => r.path)).toEqual(Array.from({ length: n }, () => expect.stringMatching(/^\/files\/img-\d+\.png$/) as string));
    expect(gw.requests.slice(last + 1).every((r) => r.headers['authorization'] === undefined)).toBe(true);
  });

  it('fails cleanly, as a gateway failure and without a second POST, when a link has expired before it is fetched', async () => {
    const client = await setup();
    gw.enqueue({ type: 'success', asTask: 'tasks-result', taskPolls: 0, urlTtlMs: 0 });
    const err = await failure(finalResult(client.generate({ prompt: 'p', n: 2 })));
    expect(err).toMatchObject({ name: 'GatewayResponseError', category: 'gateway_failure', code: 'image_download_failed' });
    expect(err.message).toContain('image link answered 403');
    expect(gw.imageRequests()).toHaveLength(1);
    expect(gw.taskPolls()).toHaveLength(1);
  });

  it('reads a failed APIMart task by its error, a content refusal staying one', async () => {
    const client = await setup();
    gw.enqueue({ type: 'success', asTask: 'tasks-result', taskPolls: 0, taskEnd: 'moderated' });
    expect(await failure(finalResult(client.generate({ prompt: 'p' })))).toMatchObject({ name: 'GatewayTaskError', category: 'content_rejected' });
  });
});

describe('polling a task that never ends', () => {
  it('fails with a timeout once the deadline passes, having sent one POST', async () => {
    // Real waits here: the deadline is what is under test.
    const client = await setup({ deadlineMs: 400, taskPollMs: 20, sleep: (ms, signal) => delay(ms, undefined, signal ? { signal } : {}) });
    gw.enqueue({ type: 'success', asTask: 'generation.task', taskPolls: Infinity });
    const err = await failure(finalResult(client.generate({ prompt: 'p' })));
    expect(err.category).toBe('timed_out');
    expect(gw.imageRequests()).toHaveLength(1);
    expect(gw.taskPolls().length).toBeGreaterThanOrEqual(1);
  });

  it('stops polling when the caller cancels', async () => {
    const controller = new AbortController();
    let pauses = 0;
    // The second wait is where the caller gives up: after exactly one poll.
    const sleep = async (_ms: number, signal?: AbortSignal) => {
      if (++pauses === 2) controller.abort();
      await Promise.resolve();
      signal?.throwIfAborted();
    };
    const client = await setup({ sleep });
    gw.enqueue({ type: 'success', asTask: 'tasks-api', taskPolls: Infinity });
    const err = await failure(finalResult(client.generate({ prompt: 'p' }, { signal: controller.signal })));
    expect(err.category).toBe('cancelled');
    expect(gw.taskPolls()).toHaveLength(1);
    expect(gw.imageRequests()).toHaveLength(1);
  });
});
