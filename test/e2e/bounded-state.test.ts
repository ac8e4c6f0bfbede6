/**
 * No per-interaction state outlives its interaction (issue 28): after many /imagine, the REST clients' rate-limit
 * handlers (one per interaction webhook route, `application id/token`, otherwise swept only hourly) and discord.js's
 * message caches are as small as after a few. The soak benchmark (bench/scenarios/soak.ts) measures the memory.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { resultPost } from './support.js';

/** Members of their own, so no per-member limit queues or refuses. */
const member = (i: number) => ({
  id: String(910_000_000_000_000_000n + BigInt(i)),
  username: `member-${i}`,
  discriminator: '0',
  global_name: `Member ${i}`,
  avatar: null,
  roleNames: [],
});

describe('per-interaction state', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { LOG_LEVEL: 'debug', QUOTA_DEFAULT_LIMIT: '1000', MAX_CONCURRENT_JOBS: '8', MAX_QUEUED_PER_MEMBER: '50' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  /** Runs `count` /imagine at once and waits until the bot has handled every one. */
  async function imagine(count: number): Promise<void> {
    const handledLines = () => h.logs.filter((line) => line.includes('"msg":"interaction handled"')).length;
    const before = handledLines();
    const handles = Array.from({ length: count }, (_, i) =>
      h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: `a lighthouse, study ${i}` }], { user: member(i) }),
    );
    await Promise.all(handles.map((handle) => handle.waitFor((x) => resultPost(x) !== undefined)));
    await h.waitForLog((entry) => entry.msg === 'interaction handled' && handledLines() >= before + count);
    // The bot forgets an interaction's handlers when its work settles, in the same turn as that log line's promise.
    await nextTurn();
  }

  const handlers = () => h.bot.rests.reduce((sum, rest) => sum + rest.handlers.size, 0);
  const cachedMessages = () => h.bot.client.channels.cache.reduce((sum, channel) => sum + ('messages' in channel ? channel.messages.cache.size : 0), 0);

  it('does not grow with the number of interactions', async () => {
    await imagine(3);
    const afterFew = { handlers: handlers(), messages: cachedMessages() };
    await imagine(24);
    expect({ handlers: handlers(), messages: cachedMessages() }).toEqual(afterFew);
    expect(afterFew.messages).toBe(0);
  });
});
