/**
 * Relays that answer an image request with a task to poll (issue 16), end to end: the images arrive and are charged
 * once, and a failed task is explained and charged nothing.
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
  async function imagine(behaviour: SuccessBehaviour) {
    const user = h.discord.fixtures.members[n++ % h.discord.fixtures.members.length]!;
    const [posts, polls] = [h.gateway.imageRequests().length, h.gateway.taskPolls().length];
    h.gateway.enqueue(behaviour);
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: `task case ${n}` }], { user });
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
});
