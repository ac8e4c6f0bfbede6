/**
 * ⭐ Favorite and the showcase (issue 32), end to end: a star saves the result to the clicker's favorites
 * (/history favorites lists it) and, where the server set a showcase channel, posts it there once, crediting its
 * author without pinging anyone: a second star by another member, the same member starring again, and two stars at
 * the same moment all leave one post. A showcase channel the bot cannot post in is refused with the reason, and the
 * result is posted by a later star once it can.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatedMessage, InteractionHandle, UserFixture } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { customIds, resultPost, textOf } from './support.js';

describe('⭐ Favorite and the showcase', () => {
  let h: Harness;
  let showcaseId: string;
  beforeAll(async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '50', LOG_LEVEL: 'debug' } });
    const { guild, admin } = h.discord.fixtures;
    showcaseId = guild.channels.nsfw.id;
    const set = h.discord.slash('settings', [{ name: 'showcase', type: 1, options: [{ name: 'channel', type: 7, value: showcaseId }] }], { user: admin });
    await set.waitFor((x) => x.edits.some((e) => e.status === 200));
    expect(textOf(set.edits.at(-1)?.payload)).toContain(`Showcase channel: <#${showcaseId}>`);
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const card = async (prompt: string): Promise<EmulatedMessage> => {
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: prompt }], { user: h.discord.fixtures.member });
    await handle.waitFor((x) => resultPost(x) !== undefined);
    // The card's buttons work once the job is archived, after it is posted.
    await h.waitForLog((e) => e['interactionId'] === handle.id && e.msg === 'interaction handled');
    return handle.lastMessage()!;
  };
  const answered = (x: InteractionHandle) => x.edits.some((e) => e.status === 200);
  const star = (message: EmulatedMessage, user: UserFixture): InteractionHandle => {
    const id = customIds(message).find((c) => c.endsWith(':fv'));
    expect(id, '⭐ button').toBeDefined();
    return h.discord.button(message, id!, { user });
  };
  const starred = async (message: EmulatedMessage, user: UserFixture): Promise<string> => {
    const handle = star(message, user);
    await handle.waitFor(answered);
    return textOf(handle.edits.filter((e) => e.status === 200).at(-1)?.payload);
  };
  const showcasePosts = () => h.discord.channelPosts.filter((p) => p.path === `/channels/${showcaseId}/messages` && p.status === 200);

  it('posts a starred result to the showcase once, crediting its author without pinging; later stars post nothing', async () => {
    const { member, member2, member3 } = h.discord.fixtures.users;
    const message = await card('a lighthouse at dusk');
    const before = showcasePosts().length;
    const first = await starred(message, member2);
    expect(first).toContain('⭐ Saved to your favorites here (1 of at most 100).');
    expect(first).toContain(`Posted to the showcase, <#${showcaseId}>.`);
    const posts = showcasePosts();
    expect(posts).toHaveLength(before + 1);
    const post = posts.at(-1)!;
    expect(textOf(post.payload)).toContain('**a lighthouse at dusk**');
    expect(textOf(post.payload)).toContain(`Made for <@${member.id}> · ⭐ starred by <@${member2.id}>`);
    expect(textOf(post.payload)).toContain(`/channels/${h.discord.fixtures.guild.id}/${message.channel_id}/${message.id}`);
    expect(post.payload?.allowed_mentions).toEqual({ parse: [] });
    expect(post.files).toHaveLength(1);

    expect(await starred(message, member3)).toContain(`It is already in the showcase, <#${showcaseId}>.`);
    const again = await starred(message, member2);
    expect(again).toContain('⭐ Already in your favorites here; moved to the top');
    expect(again).toContain('It is already in the showcase');
    expect(showcasePosts()).toHaveLength(before + 1);
    expect(h.discord.specViolations).toEqual([]);
  });

  it('posts once when two members star at the same moment', async () => {
    const { member2, member3 } = h.discord.fixtures.users;
    const message = await card('two herons in the rain');
    const before = showcasePosts().length;
    const both = [star(message, member2), star(message, member3)];
    await Promise.all(both.map((x) => x.waitFor(answered)));
    const answers = both.map((x) => textOf(x.edits.filter((e) => e.status === 200).at(-1)?.payload));
    expect(answers.filter((a) => a.includes('Posted to the showcase'))).toHaveLength(1);
    expect(answers.filter((a) => a.includes('It is already in the showcase'))).toHaveLength(1);
    expect(showcasePosts()).toHaveLength(before + 1);
  });

  it('refuses a showcase channel the bot cannot post in, saying why, and posts on a later star once it can', async () => {
    const { member2, member3 } = h.discord.fixtures.users;
    const message = await card('a paper boat');
    const before = showcasePosts().length;
    h.discord.denyChannelPosts(showcaseId);
    try {
      expect(await starred(message, member2)).toContain(`Not posted to the showcase, <#${showcaseId}>: I can't post images there`);
    } finally {
      h.discord.allowChannelPosts(showcaseId);
    }
    expect(showcasePosts()).toHaveLength(before);
    expect(await starred(message, member3)).toContain('Posted to the showcase');
    expect(showcasePosts()).toHaveLength(before + 1);
  });

  it('lists the member’s favorites here with /history favorites', async () => {
    const { member2 } = h.discord.fixtures.users;
    const list = h.discord.slash('history', [{ name: 'favorites', type: 1 }], { user: member2 });
    await list.waitFor(answered);
    const shown = list.edits.filter((e) => e.status === 200).at(-1)!.payload!;
    expect(shown.content).toBe('**Your favorites here** · page 1 of 1 · 3 of at most 100 (a new one pushes out the oldest)');
    const embeds = (shown.embeds ?? []).map((e) => String(e.description));
    expect(embeds[0]).toContain('**a paper boat**');
    expect(embeds.some((d) => d.includes('a lighthouse at dusk'))).toBe(true);
  });
});
