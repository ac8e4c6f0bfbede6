import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserFixture } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { acceptedAcks, ephemeralError, pressDelete, resultPost, settled, textOf, customIds } from './support.js';

describe('result buttons and long jobs end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sqlite: true });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it('re-checks moderation:low against whoever clicks Re-roll or submits Edit, and never sends it for them', async () => {
    const { users } = h.discord.fixtures;
    const first = h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: 'a moody harbour' },
        { name: 'moderation', type: 3, value: 'low' },
      ],
      { user: users.admin },
    );
    // Delivered and archived (the archive is written after the delivery edit), so its buttons find it.
    const accepted = await h.waitForLog((e) => e.msg === 'image job accepted' && e['interactionId'] === first.id);
    await h.waitForLog((e) => e.msg === 'image job delivered' && e['jobId'] === accepted['jobId']);
    expect(h.gateway.imageRequests().at(-1)?.json).toMatchObject({ moderation: 'low' });
    const requests = h.gateway.imageRequests().length;
    const message = first.lastMessage()!;
    const [rerollId, editId] = customIds(message).filter((id) => /^(reroll|editres):/.test(id));

    const reroll = h.discord.button(message, rerollId!, { user: users.member });
    await reroll.waitFor(settled);
    expect(ephemeralError(reroll)).toContain('`moderation:low` is only available');
    const edit = h.discord.modalSubmit(editId!, { prompt: 'brighter' }, { user: users.member, message });
    await edit.waitFor(settled);
    expect(ephemeralError(edit)).toContain('`moderation:low` is only available');
    expect(h.gateway.imageRequests()).toHaveLength(requests);
  });

  it('keeps Re-roll, Edit and Delete working after a bot restart', async () => {
    const { member, users } = h.discord.fixtures;
    const first = h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: 'a paper boat' },
        { name: 'quality', type: 3, value: 'high' },
      ],
      { user: member },
    );
    await first.waitFor((x) => resultPost(x) !== undefined);
    const message = first.lastMessage()!;
    const ids = customIds(message).filter((id) => /^(reroll|editres|delres):/.test(id));
    expect(ids.every((id) => id.length <= 100)).toBe(true);
    // No PROMPT_MODEL here: no ✨ Enhance, and one forged onto the card is refused before anything is sent.
    expect(customIds(message).some((id) => id.startsWith('enh:'))).toBe(false);
    const requests = h.gateway.imageRequests().length;
    const forged = h.discord.button(message, ids[0]!.replace(/^reroll:/, 'enh:'), { user: member });
    await forged.waitFor(settled);
    expect(ephemeralError(forged)).toContain('Prompt help is turned off here.');
    expect(h.gateway.imageRequests()).toHaveLength(requests);

    await h.restart();

    const reroll = h.discord.button(message, ids[0]!, { user: users.member2 });
    await reroll.waitFor((x) => resultPost(x) !== undefined);
    expect(acceptedAcks(reroll)).toBe(1);
    expect(h.gateway.imageRequests().at(-1)!.json).toMatchObject({ prompt: 'a paper boat', quality: 'high' });
    expect(textOf(resultPost(reroll)!.payload)).toContain(`<@${users.member2.id}>`);

    const edit = h.discord.button(message, ids[1]!, { user: member });
    const modal = await edit.waitForAck();
    expect(modal.type).toBe(9);
    const submit = h.discord.modalSubmit(modal.body!.data!.custom_id!, { prompt: 'now in gold' }, { user: member, message });
    await submit.waitFor((x) => resultPost(x) !== undefined);
    const sent = h.gateway.imageRequests().at(-1)!;
    expect(sent.path).toBe('/v1/images/edits');
    expect(sent.form!.fields['prompt']).toBe('now in gold');
    expect(sent.form!.files[0]!.bytes.length).toBe(message.attachments[0]!.size);

    const stranger = h.discord.button(message, ids[2]!, { user: users.member3 });
    await stranger.waitFor(settled);
    expect(ephemeralError(stranger)).toContain('Only the member who asked');
    expect(h.discord.messages.has(message.id)).toBe(true);

    await pressDelete(h.discord, message, member, 'delok');
    expect(h.discord.messages.has(message.id)).toBe(false);
  });

  /** Runs /imagine whose gateway answer arrives after the token expired; resolves when `posts` gains an entry. */
  async function outliveToken(user: UserFixture, prompt: string, posts: readonly unknown[]): Promise<void> {
    const held = h.gateway.hold();
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: prompt }], { user });
    await handle.waitForAck();
    await held.arrived;
    h.discord.clock.advance(16 * 60_000);
    const before = posts.length;
    held.release();
    await waitUntil(() => posts.length > before);
  }

  it('delivers in the channel, mentioning the member, when the job outlives the 15-minute token', async () => {
    const user = h.discord.fixtures.members[2]!;
    await outliveToken(user, 'a very slow painting', h.discord.channelPosts);
    const post = h.discord.channelPosts.at(-1)!;
    expect(post.path).toContain(h.discord.fixtures.guild.channels.general.id);
    expect(textOf(post.payload)).toContain(`<@${user.id}>`);
    expect(post.payload!.allowed_mentions).toEqual({ users: [user.id] });
    expect(post.files).toHaveLength(1);
  });

  it('falls back to a direct message when it cannot post in the channel', async () => {
    const user = h.discord.fixtures.members[3]!;
    h.discord.denyChannelPosts(h.discord.fixtures.guild.channels.general.id);
    try {
      await outliveToken(user, 'another slow one', h.discord.dmPosts);
      expect(h.discord.dmPosts.at(-1)!.files).toHaveLength(1);
    } finally {
      h.discord.allowChannelPosts(h.discord.fixtures.guild.channels.general.id);
    }
  });

  it('sent nothing the platforms would reject', () => {
    expect(h.discord.specViolations).toEqual([]);
    expect(h.gateway.specViolations).toEqual([]);
  });
});

/** Resolves when the condition holds, re-checking on each turn of the event loop's I/O phase. */
async function waitUntil(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
