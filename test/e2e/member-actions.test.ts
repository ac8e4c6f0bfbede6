/**
 * What members make of results beside images (issue 32), end to end: an emoji added, a result posted to the
 * showcase, a style saved and deleted are each told to the server's audit channel as one line (names inert, nobody
 * pinged), and counted in /usage; an emoji refused for want of Create Expressions is neither told nor counted.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CREATE_GUILD_EXPRESSIONS, type EmulatedMessage, type InteractionHandle } from '../emulators/discord/index.js';
import { Permissions } from '../emulators/discord/fixtures.js';
import { flatPng } from '../fakes/images.js';
import { startHarness, type Harness } from './harness.js';
import { customIds, resultPost, textOf } from './support.js';

const CAN_CREATE = (Permissions.everyone | CREATE_GUILD_EXPRESSIONS).toString();

describe('emoji, showcase posts and styles in the audit channel and /usage', () => {
  let h: Harness;
  let card: EmulatedMessage;
  let auditId: string;
  let showcaseId: string;
  const done = (x: InteractionHandle) => x.acks.some((a) => a.type === 4) || x.edits.some((e) => e.status === 200);
  const settings = async (sub: string, channelId: string) => {
    const set = h.discord.slash('settings', [{ name: sub, type: 1, options: [{ name: 'channel', type: 7, value: channelId }] }], {
      user: h.discord.fixtures.admin,
    });
    await set.waitFor(done);
  };
  const auditLines = () => [...h.discord.messages.values()].filter((m) => m.channel_id === auditId).map((m) => m.content);

  beforeAll(async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '50', LOG_LEVEL: 'debug' } });
    const { guild, member } = h.discord.fixtures;
    h.discord.setBotPermissions(guild.id, Permissions.everyone | CREATE_GUILD_EXPRESSIONS);
    auditId = guild.channels.nsfw.id;
    showcaseId = guild.channels.general.id;
    await settings('audit', auditId);
    await settings('showcase', showcaseId);
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'a lighthouse at dusk' }], { user: member });
    await handle.waitFor((x) => resultPost(x) !== undefined);
    await h.waitForLog((e) => e['interactionId'] === handle.id && e.msg === 'interaction handled');
    card = handle.lastMessage()!;
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const button = (code: string) => {
    const id = customIds(card).find((c) => c.endsWith(`:${code}`));
    expect(id, `button ${code}`).toBeDefined();
    return id!;
  };
  const makeEmoji = async (name: string, memberPermissions: string) => {
    const { member } = h.discord.fixtures;
    const opened = h.discord.button(card, button('em'), { user: member, memberPermissions });
    await opened.waitFor((x) => x.acks.length > 0);
    const modalId = opened.acks[0]?.body?.data?.custom_id;
    if (opened.acks[0]?.type !== 9 || modalId === undefined) return textOf(opened.acks[0]?.body?.data);
    const made = h.discord.modalSubmit(modalId, { name }, { user: member, memberPermissions, message: card });
    await made.waitFor(done);
    await h.waitForLog((e) => e['interactionId'] === made.id && e.msg === 'interaction handled');
    return textOf(made.edits.at(-1)?.payload);
  };

  it('tells the audit channel of an emoji, a showcase post and a style saved and deleted, one line each, pinging nobody', async () => {
    const { member, guild } = h.discord.fixtures;
    expect(await makeEmoji('lighthouse', CAN_CREATE)).toContain('Added');
    await vi.waitFor(() => expect(auditLines().some((l) => l.startsWith('😀'))).toBe(true));
    expect(auditLines().find((l) => l.startsWith('😀'))).toBe(`😀 <@${member.id}> added the emoji \`lighthouse\``);

    const star = h.discord.button(card, button('fv'), { user: h.discord.fixtures.users.member2 });
    await star.waitFor((x) => x.edits.some((e) => e.status === 200));
    await vi.waitFor(() => expect(auditLines().some((l) => l.startsWith('⭐'))).toBe(true));
    const post = [...h.discord.messages.values()].filter((m) => m.channel_id === showcaseId).at(-1);
    expect(auditLines().find((l) => l.startsWith('⭐'))).toBe(
      `⭐ <@${h.discord.fixtures.users.member2.id}> posted <@${member.id}>'s result to the showcase · [post](https://discord.com/channels/${guild.id}/${showcaseId}/${post?.id})`,
    );

    const upload = h.discord.uploadAttachment((await flatPng(64, 64)).bytes, 'style.png', 'image/png');
    const save = h.discord.slash(
      'styles',
      [
        {
          name: 'save',
          type: 1,
          options: [
            { name: 'name', type: 3, value: 'dusk' },
            { name: 'image', type: 11, value: upload.id },
          ],
        },
      ],
      {
        user: member,
        resolvedAttachments: [upload],
      },
    );
    await save.waitFor((x) => x.edits.some((e) => e.status === 200));
    await vi.waitFor(() => expect(auditLines()).toContain(`🎨 <@${member.id}> saved the style \`dusk\``));
    const remove = h.discord.slash('styles', [{ name: 'delete', type: 1, options: [{ name: 'name', type: 3, value: 'dusk' }] }], { user: member });
    await remove.waitFor((x) => x.edits.some((e) => e.status === 200));
    await vi.waitFor(() => expect(auditLines()).toContain(`🗑️ <@${member.id}> deleted the style \`dusk\``));
    // Lines mention but never ping.
    const auditPosts = h.discord.channelPosts.filter((p) => p.path === `/channels/${auditId}/messages`);
    expect(auditPosts.length).toBeGreaterThanOrEqual(4);
    expect(auditPosts.every((p) => JSON.stringify(p.payload?.allowed_mentions) === '{"parse":[]}')).toBe(true);
  });

  it('counts them in /usage, and neither tells nor counts an emoji refused for want of Create Expressions', async () => {
    const before = auditLines().length;
    expect(await makeEmoji('refused', Permissions.everyone.toString())).toContain('Create Expressions');
    const usage = h.discord.slash('usage', [], { user: h.discord.fixtures.admin });
    await usage.waitFor((x) => x.edits.some((e) => e.status === 200));
    expect(textOf(usage.edits.at(-1)?.payload)).toContain('Made from results: 1 emoji · 0 stickers · 1 showcase post · 1 style saved');
    expect(auditLines()).toHaveLength(before);
  });
});
