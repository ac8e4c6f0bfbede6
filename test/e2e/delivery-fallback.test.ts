/**
 * Discord failing the delivery: the images still reach the member by the next way (a plain upload when the streamed
 * post of the card keeps failing, the channel when no card can be posted under the reply at all, the reply then
 * pointing there), and only when every way fails is the member told they were not charged, with the quota refunded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionHandle, UserFixture } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { ephemeralError, resultPost, quotaText, settled, textOf } from './support.js';

const SERVICE_UNAVAILABLE = { status: 503, body: { message: 'Service Unavailable', code: 0 } };

describe('delivery when Discord keeps failing', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '10' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  function imagine(user: UserFixture, prompt: string): InteractionHandle {
    return h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: prompt }], { user });
  }

  /** The card's post under the reply (a follow-up with files; the private error answer is one without). */
  function cardPosts(handle: InteractionHandle) {
    return { method: 'POST', path: new RegExp(`^/webhooks/\\d+/${handle.token}$`), contentType: /^multipart\// };
  }

  /** The request log entries of `handle`'s card posts. */
  function posts(handle: InteractionHandle) {
    return h.discord.requests.filter((r) => r.method === 'POST' && r.path.endsWith(handle.token));
  }

  it('uploads the images plainly when the streamed post fails four times with 503', async () => {
    const user = h.discord.fixtures.members[0]!;
    const handle = imagine(user, 'four failures');
    h.discord.failNext(cardPosts(handle), SERVICE_UNAVAILABLE, 4);
    await handle.waitFor((x) => resultPost(x) !== undefined);
    expect(posts(handle).filter((r) => r.status === 503)).toHaveLength(4);
    expect(resultPost(handle)?.files).toHaveLength(1);
    expect(await quotaText(h.discord, user)).toContain('9 of 10');
  });

  it('hands the images off to the channel when no card can be posted under the reply, and points the reply there', async () => {
    const user = h.discord.fixtures.members[1]!;
    const handle = imagine(user, 'no reply posts');
    h.discord.failNext(cardPosts(handle), SERVICE_UNAVAILABLE, 50);
    const posts = h.discord.channelPosts.length;
    const accepted = await h.waitForLog((e) => e.msg === 'image job accepted' && e['interactionId'] === handle.id);
    await h.waitForLog((e) => e.msg === 'image job delivered' && e['jobId'] === accepted['jobId']);
    const post = h.discord.channelPosts.slice(posts).find((p) => p.status === 200)!;
    expect(textOf(post.payload)).toContain(`<@${user.id}> your images are ready.`);
    expect(post.files).toHaveLength(1);
    // The reply says where the images are (just below, in the same channel), and is not left "thinking…".
    const handedOff = [...h.discord.messages.values()].find(
      (m) => m.channel_id === handle.originalMessage()!.channel_id && textOf(m).includes('no reply posts'),
    )!;
    const reply = handle.originalMessage()!;
    expect(BigInt(handedOff.id) > BigInt(reply.id)).toBe(true);
    expect(textOf(reply)).toBe('⬇️ Your images are just below.');
    expect((reply.flags ?? 0) & 128).toBe(0);
    expect(await quotaText(h.discord, user)).toContain('9 of 10');
  });

  it('tells the member they were not charged, and refunds, when every way fails', async () => {
    const user = h.discord.fixtures.members[2]!;
    const handle = imagine(user, 'nothing works');
    h.discord.failNext(cardPosts(handle), SERVICE_UNAVAILABLE, 50);
    h.discord.denyChannelPosts(h.discord.fixtures.guild.channels.general.id);
    h.discord.failNext({ method: 'POST', path: /^\/users\/@me\/channels$/ }, SERVICE_UNAVAILABLE, 50);
    await handle.waitFor(settled);
    expect(ephemeralError(handle)).toContain("I made your images but couldn't post them here. You were not charged.");
    expect(await quotaText(h.discord, user)).toContain('10 of 10');
  });
});
