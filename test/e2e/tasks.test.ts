/**
 * Relays that answer an image request with a task to poll (issues 16 and 27), end to end: the images arrive and are
 * charged once, and a failed task is explained and charged nothing. APIMart's form (issue 27): result links as a
 * `url` array, fetched as soon as the poll hands them out, and a link that lapsed fails cleanly and is refunded.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SuccessBehaviour } from '../emulators/gateway/index.js';
import { startHarness, type Harness } from './harness.js';
import { acceptedAcks, ephemeralError, resultPost, quotaText, settled } from './support.js';

describe('task answers end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '100', GATEWAY_TASK_POLL_MS: '5' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  let n = 0;
  /** Runs one /imagine whose gateway answer is `behaviour`, for a member of its own; counts its POSTs and polls. */
  async function imagine(behaviour: SuccessBehaviour, count = 1) {
    const user = h.discord.fixtures.members[n++ % h.discord.fixtures.members.length]!;
    const [posts, polls] = [h.gateway.imageRequests().length, h.gateway.taskPolls().length];
    h.gateway.enqueue(behaviour);
    const options = [
      { name: 'prompt', type: 3, value: `task case ${n}` },
      { name: 'count', type: 4, value: count },
    ];
    const handle = h.discord.slash('imagine', options, { user });
    await handle.waitFor(settled);
    expect(acceptedAcks(handle)).toBe(1);
    return { handle, user, posts: h.gateway.imageRequests().length - posts, polls: h.gateway.taskPolls().length - polls };
  }

  it.each<[SuccessBehaviour['asTask'], boolean]>([
    ['generation.task', false],
    ['tasks-api', true],
  ])('delivers the image of a %s answer (url items: %s) and charges it once', async (asTask, urlItems) => {
    const { handle, user, posts, polls } = await imagine({ type: 'success', asTask, urlItems, taskPolls: 2 });
    const final = resultPost(handle);
    expect(final?.files).toHaveLength(1);
    const meta = await sharp(final!.files[0]!.bytes).metadata();
    expect([meta.format, meta.width]).toEqual(['png', 1024]);
    expect(posts).toBe(1);
    expect(polls).toBe(3);
    expect(await quotaText(h.discord, user)).toContain('99 of 100 images left');
  });

  it.each<SuccessBehaviour['asTask']>(['generation.task', 'tasks-api'])(
    'explains a failed %s task as a gateway failure and charges nothing',
    async (asTask) => {
      const { handle, user, posts, polls } = await imagine({ type: 'success', asTask, taskPolls: 1, taskEnd: 'failed' });
      expect(ephemeralError(handle)).toContain('ran into a problem');
      expect(resultPost(handle)).toBeUndefined();
      expect([posts, polls]).toEqual([1, 2]);
      expect(await quotaText(h.discord, user)).toContain('100 of 100 images left');
    },
  );

  it('delivers the images of an APIMart task whose result lists them as a url array, fetched right after the last poll', async () => {
    const before = h.gateway.requests.length;
    const { handle, user, posts, polls } = await imagine({ type: 'success', asTask: 'tasks-result', taskPolls: 2 }, 3);
    expect(resultPost(handle)?.files).toHaveLength(3);
    expect([posts, polls]).toEqual([1, 3]);
    const gateway = h.gateway.requests.slice(before);
    const lastPoll = gateway.findLastIndex((r) => r.path.startsWith('/v1/tasks/'));
    // The links are signed and short-lived: the bot fetches them at once, before anything else, without the key.
    const after = gateway.slice(lastPoll + 1);
    expect(after.map((r) => r.path)).toEqual(Array.from({ length: 3 }, () => expect.stringMatching(/^\/files\//) as string));
    expect(after.every((r) => r.headers['authorization'] === undefined)).toBe(true);
    expect(await quotaText(h.discord, user)).toContain('97 of 100 images left');
  });

  it('explains an APIMart task whose links lapsed before they could be fetched, and charges nothing', async () => {
    const { handle, user, posts, polls } = await imagine({ type: 'success', asTask: 'tasks-result', taskPolls: 0, urlTtlMs: 0 }, 2);
    expect(ephemeralError(handle)).toContain('ran into a problem');
    expect(resultPost(handle)).toBeUndefined();
    expect([posts, polls]).toEqual([1, 1]);
    expect(await quotaText(h.discord, user)).toContain('100 of 100 images left');
  });
});
