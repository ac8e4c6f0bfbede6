/**
 * The Discord emulator driven by the real discord.js client: login, slash → defer → edit with files → follow-up,
 * autocomplete, button → modal → submit, message context menu, command registration and channel posts.
 */
import { AttachmentBuilder, type Interaction, MessageFlags } from 'discord.js';
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
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366ff' } }).png().toBuffer();
});

afterAll(async () => {
  await harness?.destroy();
  await emulator?.close();
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
    const { guild, otherGuild, admin } = { ...emulator.fixtures, admin: emulator.fixtures.users.admin };
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
    const h = emulator.slash('edit', [{ name: 'prompt', type: 3, value: 'watercolor' }, { name: 'image', type: 11, value: upload.id }], {
      user: emulator.fixtures.member,
    });
    await h.waitFor((x) => x.followUps.length === 1);

    expect(seen).toEqual({ url: upload.url, width: 64, limit: 10 * 1024 * 1024 });
    expect((await h.waitForAck()).type).toBe(5);
    expect(h.acks).toHaveLength(1);
    expect(h.edits).toHaveLength(1);
    const [edit] = h.edits;
    expect(edit?.status).toBe(200);
    expect(edit?.files[0]?.bytes.equals(png)).toBe(true);
    expect(edit?.payload.attachments).toEqual([expect.objectContaining({ id: '0', description: 'generated' })]);
    const original = h.lastMessage();
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
