/**
 * Delete asks first (issue 31), end to end: 🗑️ Delete answers only the clicker with a red Delete and a Keep; Keep
 * leaves the card, Delete removes it (in a commands-only install too, through the click's own token), and a
 * confirmation that outlived a restart has expired and says so, deleting nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatedMessage, GuildFixture } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { customIds, ephemeralError, pressDelete, resultPost, settled, textOf } from './support.js';

describe('Delete asks first', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '50' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const card = async (guild?: GuildFixture): Promise<EmulatedMessage> => {
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'a paper crane' }], {
      user: h.discord.fixtures.member,
      ...(guild ? { guild, channelId: guild.channels.general.id } : {}),
    });
    await handle.waitFor((x) => resultPost(x) !== undefined);
    return handle.lastMessage()!;
  };

  it('asks only the clicker, and Keep leaves the card', async () => {
    const message = await card();
    const { click, answer } = await pressDelete(h.discord, message, h.discord.fixtures.member, 'delno');
    const asked = click.followUps.find((f) => customIds(f.payload).some((id) => id.startsWith('delok:')))!;
    expect(asked.payload?.flags).toBe(64 | 32768);
    expect(textOf(asked.payload)).toBe("Delete this result for everyone? This can't be undone.");
    const buttons = (asked.payload?.components as { components?: { style?: number; custom_id?: string }[] }[]).flatMap((c) => c.components ?? []);
    expect(buttons.find((b) => b.custom_id?.startsWith('delok:'))?.style).toBe(4);
    await answer.waitFor((x) => x.acks.some((a) => a.type === 7));
    expect(textOf(answer.acks.find((a) => a.type === 7)!.body?.data)).toBe('Kept: nothing was deleted.');
    expect(h.discord.messages.has(message.id)).toBe(true);
    expect(click.edits.some((e) => e.method === 'DELETE')).toBe(false);
  });

  it('deletes on Delete, in a commands-only install too', async () => {
    const { guild, thirdGuild } = h.discord.fixtures;
    expect(h.bot.client.guilds.cache.has(thirdGuild.id)).toBe(false);
    for (const where of [guild, thirdGuild]) {
      const message = await card(where);
      const { answer } = await pressDelete(h.discord, message, h.discord.fixtures.member, 'delok', where);
      expect(h.discord.messages.has(message.id)).toBe(false);
      expect(textOf(answer.acks.find((a) => a.type === 7)!.body?.data)).toBe('🗑️ Deleted.');
    }
  });

  it('says a confirmation from before a restart has expired, and deletes nothing', async () => {
    const message = await card();
    const deleteId = customIds(message).find((id) => id.startsWith('delres:'))!;
    const click = h.discord.button(message, deleteId, { user: h.discord.fixtures.member });
    await click.waitFor((x) => x.followUps.some((f) => customIds(f.payload).some((id) => id.startsWith('delok:'))));
    const confirmation = click.lastMessage()!;
    const confirmId = customIds(confirmation).find((id) => id.startsWith('delok:'))!;
    await h.restart();
    const late = h.discord.button(confirmation, confirmId, { user: h.discord.fixtures.member });
    await late.waitFor(settled);
    expect(ephemeralError(late)).toContain('That confirmation has expired');
    expect(h.discord.messages.has(message.id)).toBe(true);
  });
});
