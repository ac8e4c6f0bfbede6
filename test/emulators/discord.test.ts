/**
 * The Discord emulator driven by the real discord.js client: login, slash → defer → edit with files → follow-up,
 * autocomplete, button → modal → submit, message context menu, command registration and channel posts.
 */
import { AttachmentBuilder, ButtonStyle, ComponentType, type Interaction, MessageFlags, TextInputStyle } from 'discord.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type HarnessedClient } from './discord/client-harness.js';
import { type DiscordEmulator, startDiscordEmulator } from './discord/index.js';

let emulator: DiscordEmulator;
let harness: HarnessedClient;
let png: Buffer;

beforeAll(async () => {
  emulator = await startDiscordEmulator({ log: false });
  harness = await connectClient(emulator);
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();
});

afterAll(async () => {
  await (harness as HarnessedClient | undefined)?.destroy();
  await (emulator as DiscordEmulator | undefined)?.close();
});

function handle(fn: (interaction: Interaction) => Promise<unknown>): void {
  harness.onInteraction(fn);
}

async function fetchBytes(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('login', () => {
  it('identifies, receives READY and caches both fixture guilds with channels and members', async () => {
    await emulator.whenReady();
    const { guild, otherGuild, admin } = emulator.fixtures;
    expect(harness.client.user.id).toBe(emulator.botUserId);
    expect(harness.client.application.id).toBe(emulator.applicationId);
    expect([...harness.client.guilds.cache.keys()].sort()).toEqual([guild.id, otherGuild.id].sort());
    const cached = harness.client.guilds.cache.get(guild.id);
    expect(cached?.channels.cache.get(guild.channels.nsfw.id)).toMatchObject({ nsfw: true });
    expect(cached?.members.cache.get(admin.id)?.permissions.has('ManageGuild')).toBe(true);
    expect(emulator.fixtures.members.length).toBeGreaterThanOrEqual(6);
  });
});

describe('slash command with an attachment', () => {
  it('resolves the attachment, records the defer, the multipart edit and the follow-up, and serves the files', async () => {
    const upload = emulator.uploadAttachment(png, 'cat.png');
    const seen: { url?: string; width?: number | null; limit?: number } = {};
    handle(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.deferReply();
      const image = interaction.options.getAttachment('image', true);
      Object.assign(seen, { url: image.url, width: image.width, limit: interaction.attachmentSizeLimit });
      await interaction.editReply({ content: 'done', files: [new AttachmentBuilder(png, { name: 'result.png', description: 'generated' })] });
      await interaction.followUp({ content: 'extra', flags: MessageFlags.Ephemeral });
    });
    const h = emulator.slash(
      'edit',
      [
        { name: 'prompt', type: 3, value: 'watercolor' },
        { name: 'image', type: 11, value: upload.id },
      ],
      {
        user: emulator.fixtures.member,
      },
    );
    await h.waitFor((x) => x.followUps.length === 1);

    expect(seen).toEqual({ url: upload.url, width: 64, limit: 20 * 1024 * 1024 });
    expect((await h.waitForAck()).type).toBe(5);
    expect(h.dispatchedAt).toBeLessThan(h.acks[0]?.receivedAt ?? 0);
    expect(h.acks).toHaveLength(1);
    expect(h.edits).toHaveLength(1);
    const [edit] = h.edits;
    expect(edit?.status).toBe(200);
    expect(edit?.files[0]?.bytes.equals(png)).toBe(true);
    expect(edit?.payload!.attachments).toEqual([expect.objectContaining({ id: '0', description: 'generated' })]);
    const original = h.originalMessage();
    expect(original).toMatchObject({ content: 'done', type: 20, flags: 0 });
    expect(original?.attachments[0]).toMatchObject({ filename: 'result.png', width: 64, height: 48, description: 'generated' });
    const served = await fetchBytes(original?.attachments[0]?.url ?? '');
    expect(served).toMatchObject({ status: 200, type: 'image/png' });
    expect(served.bytes.equals(png)).toBe(true);
    expect(h.followUps[0]).toMatchObject({ status: 200, payload: { content: 'extra', flags: 64 } });
    expect(emulator.specViolations).toEqual([]);
    expect(harness.handlerErrors).toEqual([]);
  });
});

describe('autocomplete', () => {
  it('delivers the focused option and records a type-8 response with at most 25 choices', async () => {
    let focused: unknown;
    handle(async (interaction) => {
      if (!interaction.isAutocomplete()) return;
      focused = interaction.options.getFocused(true);
      const choices = Array.from({ length: 30 }, (_, i) => ({ name: `style ${i}`, value: `s${i}` }));
      await interaction.respond(choices.slice(0, 25));
    });
    const h = emulator.autocomplete(
      'imagine',
      [
        { name: 'prompt', type: 3, value: 'cat' },
        { name: 'style', type: 3, value: 'wat', focused: true },
      ],
      {
        user: emulator.fixtures.member,
      },
    );
    const ack = await h.waitForAck();
    expect(focused).toMatchObject({ name: 'style', value: 'wat' });
    expect(ack).toMatchObject({ type: 8, status: 204 });
    expect(ack.body!.data!.choices).toHaveLength(25);
    expect(emulator.specViolations).toEqual([]);
  });
});

describe('button, modal and modal submit', () => {
  it('opens a modal from a button and applies the component-born submit to the original message', async () => {
    const user = emulator.fixtures.member;
    handle(async (interaction) => {
      if (interaction.isChatInputCommand()) {
        await interaction.reply({
          content: 'result',
          components: [
            { type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: 'refine:1', label: 'Refine' }] },
          ],
        });
      } else if (interaction.isButton()) {
        await interaction.showModal({
          custom_id: 'refine-modal:1',
          title: 'Refine prompt',
          components: [
            {
              type: ComponentType.Label,
              label: 'Prompt',
              component: { type: ComponentType.TextInput, custom_id: 'prompt', style: TextInputStyle.Paragraph, max_length: 4000 },
            },
          ],
        });
      } else if (interaction.isModalSubmit() && interaction.isFromMessage()) {
        await interaction.deferUpdate();
        await interaction.editReply({ content: `refined: ${interaction.fields.getTextInputValue('prompt')}`, components: [] });
      }
    });
    const command = emulator.slash('imagine', [{ name: 'prompt', type: 3, value: 'a cat' }], { user });
    await command.waitForAck();
    const message = command.lastMessage();
    expect(message?.components).toHaveLength(1);

    const click = emulator.button(message!, 'refine:1', { user });
    expect((await click.waitForAck()).type).toBe(9);
    expect(click.acks[0]?.body!.data).toMatchObject({ custom_id: 'refine-modal:1', title: 'Refine prompt' });

    const submit = emulator.modalSubmit('refine-modal:1', { prompt: 'more blue' }, { user, message: message! });
    await submit.waitFor((h) => h.edits.some((e) => e.status === 200));
    expect(submit.acks.map((a) => [a.type, a.status])).toEqual([[6, 204]]);
    expect(emulator.messages.get(message!.id)).toMatchObject({ content: 'refined: more blue', components: [] });
    expect(emulator.specViolations).toEqual([]);
  });
});

describe('message context menu', () => {
  it('resolves the target message with its CDN-served attachments', async () => {
    const upload = emulator.uploadAttachment(png, 'photo.png');
    const target = emulator.createUserMessage(emulator.fixtures.guild.channels.general.id, emulator.fixtures.member, 'look', [upload]);
    let seen: { url: string | undefined; name: string | undefined; channel: string | null } | undefined;
    handle(async (interaction) => {
      if (!interaction.isMessageContextMenuCommand()) return;
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      const attachment = interaction.targetMessage.attachments.first();
      seen = { url: attachment?.url, name: attachment?.name, channel: interaction.channelId };
      await interaction.editReply({ content: 'editing' });
    });
    const h = emulator.messageCommand('Edit with AI', target, { user: emulator.fixtures.users.admin });
    await h.waitFor((x) => x.edits.length === 1);
    expect(seen).toEqual({ url: target.attachments[0]?.url, name: 'photo.png', channel: target.channel_id });
    expect(h.acks[0]).toMatchObject({ type: 5, flags: 64 });
    expect(h.lastMessage()).toMatchObject({ type: 23, flags: 64, content: 'editing' });
    expect((await fetchBytes(seen?.url ?? '')).bytes.equals(png)).toBe(true);
  });
  it('resolves a forwarded message with its snapshot, and embeds and Components V2 galleries as discord.js reads them', async () => {
    const { guild, member, users } = emulator.fixtures;
    const upload = emulator.uploadAttachment(png, 'forwarded.png');
    const original = emulator.createUserMessage(guild.channels.general.id, member, 'original', [upload], {
      embeds: [{ image: { url: 'https://cdn.discordapp.com/attachments/1/2/embedded.png' } }],
    });
    const forward = emulator.forwardMessage(original, guild.channels.general.id, users.member2);
    const gallery = emulator.createUserMessage(guild.channels.general.id, users.member3, '', [], {
      components: [{ type: ComponentType.Container, components: [{ type: ComponentType.MediaGallery, items: [{ media: { url: upload.url } }] }] }],
    });
    const seen: unknown[] = [];
    handle(async (interaction) => {
      if (!interaction.isMessageContextMenuCommand()) return;
      const message = interaction.targetMessage;
      const snapshot = message.messageSnapshots.first();
      const container = message.components[0];
      const media = container?.type === ComponentType.Container ? container.components[0] : undefined;
      seen.push({
        flags: message.flags.bitfield,
        forwarded: message.reference?.messageId,
        files: snapshot?.attachments.map((a) => a.url),
        embed: snapshot?.embeds[0]?.image?.url,
        gallery: media?.type === ComponentType.MediaGallery ? media.items.map((item) => item.media.url) : undefined,
      });
      await interaction.deferReply();
    });
    await emulator.messageCommand('Edit with AI', forward, { user: member }).waitForAck();
    await emulator.messageCommand('Edit with AI', gallery, { user: member }).waitForAck();
    expect(seen).toEqual([
      {
        flags: MessageFlags.HasSnapshot,
        forwarded: original.id,
        files: [original.attachments[0]?.url],
        embed: 'https://cdn.discordapp.com/attachments/1/2/embedded.png',
        gallery: undefined,
      },
      { flags: MessageFlags.IsComponentsV2, forwarded: undefined, files: undefined, embed: undefined, gallery: [upload.url] },
    ]);
    expect(() =>
      emulator.createUserMessage(guild.channels.general.id, member, 'text', [], { components: [{ type: ComponentType.MediaGallery, items: [] }] }),
    ).toThrow(/Components V2/);
  });

  it('takes the guild and channel from the target message', async () => {
    const { otherGuild, users } = emulator.fixtures;
    const target = emulator.createUserMessage(otherGuild.channels.nsfw.id, users.member, 'elsewhere', []);
    let where: [string | null, string | null] | undefined;
    handle(async (interaction) => {
      if (!interaction.isMessageContextMenuCommand()) return;
      where = [interaction.guildId, interaction.channelId];
      await interaction.deferReply();
    });
    await emulator.messageCommand('Edit with AI', target, { user: users.member }).waitForAck();
    expect(where).toEqual([otherGuild.id, otherGuild.channels.nsfw.id]);
  });
});

describe('command registration', () => {
  it('records bulk overwrites, echoes ids and versions, keeps ids stable, and dispatches the registered id', async () => {
    const definitions = [
      { name: 'imagine', description: 'Generate an image', options: [{ type: 3, name: 'prompt', description: 'What to draw', required: true }] },
      { name: 'quota', description: 'Quota admin', default_member_permissions: '32' },
      { name: 'Edit with AI', type: 3 },
    ];
    const first = await harness.client.application.commands.set(definitions);
    const again = await harness.client.application.commands.set(definitions);
    const guildId = emulator.fixtures.guild.id;
    await harness.client.guilds.cache.get(guildId)!.commands.set([{ name: 'beta', description: 'Guild-only' }]);

    expect(emulator.commandPuts.map((p) => p.scope)).toEqual(['global', 'global', guildId]);
    expect(emulator.commandPuts[0]?.body).toHaveLength(3);
    expect([...again.keys()].sort()).toEqual([...first.keys()].sort());
    expect(emulator.registeredCommands('global')).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'quota', application_id: emulator.applicationId, default_member_permissions: '32' })]),
    );
    expect(emulator.registeredCommands(guildId)).toEqual([expect.objectContaining({ name: 'beta', guild_id: guildId })]);
    let commandId: string | undefined;
    handle(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      commandId = interaction.commandId;
      await interaction.deferReply();
    });
    await emulator.slash('imagine', [{ name: 'prompt', type: 3, value: 'x' }], { user: emulator.fixtures.member }).waitForAck();
    expect(commandId).toBe(first.find((c) => c.name === 'imagine')?.id);
    expect(emulator.specViolations).toEqual([]);
  });

  it('refuses an overwrite Discord would: a 16th message command, a context menu with a description', async () => {
    const menus = Array.from({ length: 16 }, (_, i) => ({ name: `Menu ${i}`, type: 3 }));
    await expect(harness.client.application.commands.set(menus)).rejects.toMatchObject({ code: 30032, status: 400 });
    await expect(harness.client.application.commands.set(menus.slice(0, 15))).resolves.toHaveProperty('size', 15);
    const described = [{ name: 'Use as style', type: 3, description: 'Not for menus' }];
    await expect(harness.client.application.commands.set(described)).rejects.toMatchObject({ code: 50035, status: 400 });
  });
});

describe('channel posts and DMs', () => {
  it('records a channel post with files, and a DM after a 50013 on a denied channel', async () => {
    const { general, nsfw } = emulator.fixtures.guild.channels;
    const channel = await harness.client.channels.fetch(general.id);
    if (!channel?.isSendable()) throw new Error('general is not sendable');
    const sent = await channel.send({ content: 'posted', files: [new AttachmentBuilder(png, { name: 'late.png' })] });
    expect(emulator.channelPosts.at(-1)).toMatchObject({ status: 200, payload: { content: 'posted' } });
    expect(emulator.channelPosts.at(-1)?.files[0]?.bytes.equals(png)).toBe(true);
    expect((await fetchBytes(sent.attachments.first()?.url ?? '')).bytes.equals(png)).toBe(true);

    emulator.denyChannelPosts(nsfw.id);
    const denied = await harness.client.channels.fetch(nsfw.id);
    if (!denied?.isSendable()) throw new Error('nsfw is not sendable');
    await expect(denied.send('nope')).rejects.toMatchObject({ code: 50013, status: 403 });
    const user = await harness.client.users.fetch(emulator.fixtures.member.id, { force: true });
    await user.send({ content: 'your image', files: [new AttachmentBuilder(png, { name: 'dm.png' })] });
    expect(emulator.dmPosts).toHaveLength(1);
    expect(emulator.dmPosts[0]).toMatchObject({ status: 200, payload: { content: 'your image' } });
    expect(emulator.specViolations).toEqual([]);
  });
});

describe('request listeners', () => {
  it('tells onRequest listeners of each answered request, with the message already stored, until unsubscribed', async () => {
    const { general } = emulator.fixtures.guild.channels;
    const channel = await harness.client.channels.fetch(general.id);
    if (!channel?.isSendable()) throw new Error('general is not sendable');
    const heard: { method: string; status: number; stored: boolean }[] = [];
    const unsubscribe = emulator.onRequest((request) => {
      if (request.path === `/channels/${general.id}/messages`) {
        heard.push({ method: request.method, status: request.status, stored: [...emulator.messages.values()].some((m) => m.content === 'heard') });
      }
    });
    await channel.send('heard');
    unsubscribe();
    await channel.send('not heard');
    expect(heard).toEqual([{ method: 'POST', status: 200, stored: true }]);
  });
});

describe('interaction shapes', () => {
  it('dispatches DM interactions (context 1) with `user` and a DM channel', async () => {
    let seen: Record<string, unknown> | undefined;
    handle(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      seen = { inGuild: interaction.inGuild(), userId: interaction.user.id, dm: interaction.channel?.isDMBased(), context: interaction.context };
      await interaction.reply({ content: 'hi in DM', files: [new AttachmentBuilder(png, { name: 'dm.png' })] });
    });
    const h = emulator.slash('imagine', [{ name: 'prompt', type: 3, value: 'x' }], { user: emulator.fixtures.member, guild: null });
    await h.waitForAck();
    expect(seen).toEqual({ inGuild: false, userId: emulator.fixtures.member.id, dm: true, context: 1 });
    expect(h.acks[0]).toMatchObject({ type: 4, status: 204 });
    expect(h.acks[0]?.files[0]?.bytes.equals(png)).toBe(true);
    expect(h.lastMessage()).toMatchObject({ content: 'hi in DM', channel_id: h.payload['channel_id'] });
    expect(h.lastMessage()?.attachments[0]).toMatchObject({ filename: 'dm.png', width: 64 });
    expect(emulator.specViolations).toEqual([]);
  });

  it('resolves user and role options and exposes member permissions', async () => {
    const { guild, users } = emulator.fixtures;
    let seen: Record<string, unknown> | undefined;
    handle(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      seen = {
        target: interaction.options.getUser('target')?.id,
        targetRoles: interaction.options.getMember('target') ? 'member' : 'none',
        role: interaction.options.getRole('role')?.name,
        canManage: interaction.memberPermissions?.has('ManageGuild'),
        sub: interaction.options.getSubcommand(),
      };
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    });
    const options = [
      {
        name: 'set',
        type: 1,
        options: [
          { name: 'target', type: 6, value: users.member.id },
          { name: 'role', type: 8, value: guild.roles.vip.id },
        ],
      },
    ];
    await emulator.slash('quota', options, { user: users.admin }).waitForAck();
    expect(seen).toEqual({ target: users.member.id, targetRoles: 'member', role: 'VIP', canManage: true, sub: 'set' });
    await emulator.slash('quota', options, { user: users.member }).waitForAck();
    expect(seen?.['canManage']).toBe(false);
  });

  it('answers ?with_response=true with an InteractionCallbackResponse, updates on type 7 and deletes @original', async () => {
    const user = emulator.fixtures.member;
    let loading: boolean | undefined;
    handle(async (interaction) => {
      if (interaction.isChatInputCommand()) {
        const response = await interaction.deferReply({ withResponse: true });
        loading = response.interaction.responseMessageLoading ?? undefined;
        await interaction.editReply({
          content: 'v1',
          components: [
            { type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: 'regen', label: 'Again' }] },
          ],
        });
      } else if (interaction.isButton()) {
        await interaction.update({ content: 'v2', components: [] });
        await interaction.deleteReply();
      }
    });
    const command = emulator.slash('imagine', [{ name: 'prompt', type: 3, value: 'x' }], { user });
    await command.waitFor((h) => h.edits.length === 1);
    expect(loading).toBe(true);
    const message = command.lastMessage()!;
    const click = emulator.button(message, 'regen', { user });
    await click.waitFor((h) => h.edits.some((e) => e.method === 'DELETE'));
    expect(click.acks[0]).toMatchObject({ type: 7, status: 204, body: { data: { content: 'v2' } } });
    expect(click.edits[0]).toMatchObject({ method: 'DELETE', status: 204 });
    expect(emulator.messages.has(message.id)).toBe(false);
    expect(emulator.specViolations).toEqual([]);
  });
});
