/**
 * Real Discord's public bugs and surprises, as the emulator plays them by default (quirks.ts), and the documented
 * behaviour with each turned off, through the real discord.js client: #7529 (an edit may not show a file it uploads
 * in a Components V2 gallery or file component), the first follow-up after a defer editing the loading message,
 * #8277 (a card's files are left out of `attachments`, found only in its media items), and PR #8578's 20 MiB default
 * upload limit.
 */
import { AttachmentBuilder, MessageFlags, Routes, type APIMessage, type ChatInputCommandInteraction, type Interaction } from 'discord.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type HarnessedClient } from './client-harness.js';
import { type DiscordEmulator, type DiscordQuirks, startDiscordEmulator } from './index.js';

const png = await sharp({ create: { width: 24, height: 16, channels: 3, background: '#336699' } })
  .png()
  .toBuffer();

/** A V2 card showing `name` (an upload of the same request) in a gallery, and optionally a file component. */
function card(name: string, asFile = false) {
  const media = asFile ? { type: 13, file: { url: `attachment://${name}` } } : { type: 12, items: [{ media: { url: `attachment://${name}` } }] };
  return {
    flags: MessageFlags.IsComponentsV2,
    components: [{ type: 17, components: [media, { type: 10, content: 'a card' }] }],
    files: [new AttachmentBuilder(png, { name })],
  } as const;
}

interface Outcome {
  status: number;
  message?: APIMessage | undefined;
  code?: unknown;
}

async function outcome(request: Promise<unknown>): Promise<Outcome> {
  try {
    const message = (await request) as { toJSON?: () => unknown } | APIMessage | undefined;
    return { status: 200, message: message as APIMessage };
  } catch (err) {
    const e = err as { status?: number; code?: unknown; rawError?: unknown };
    return { status: e.status ?? 0, code: e.code };
  }
}

function setUp(quirks?: Partial<DiscordQuirks>) {
  const env = {} as { emulator: DiscordEmulator; harness: HarnessedClient };
  beforeAll(async () => {
    env.emulator = await startDiscordEmulator({ log: false, ...(quirks ? { quirks } : {}) });
    env.harness = await connectClient(env.emulator);
  });
  afterAll(async () => {
    await (env.harness as HarnessedClient | undefined)?.destroy();
    await (env.emulator as DiscordEmulator | undefined)?.close();
  });
  /** Runs `body` as the bot's handler of one /imagine and returns what it returned, with the interaction's handle. */
  const run = async <T>(body: (interaction: ChatInputCommandInteraction) => Promise<T>) => {
    let result!: Promise<T>;
    const done = new Promise<void>((resolve) => {
      env.harness.onInteraction(async (interaction: Interaction) => {
        if (!interaction.isChatInputCommand()) return;
        result = body(interaction);
        await result.catch(() => undefined);
        resolve();
      });
    });
    const handle = env.emulator.slash('imagine', [{ name: 'prompt', type: 3, value: 'a cat' }], { user: env.emulator.fixtures.member });
    await done;
    return { handle, result: await result };
  };
  return { env, run };
}

describe('on real Discord (the default)', () => {
  const { env, run } = setUp();

  it('refuses an edit of the reply that shows a file it uploads in a V2 gallery or file component (#7529)', async () => {
    for (const asFile of [false, true]) {
      const { result, handle } = await run(async (interaction) => {
        await interaction.deferReply();
        return outcome(interaction.editReply(card('a.png', asFile)));
      });
      expect(result).toMatchObject({ status: 400, code: 50035 });
      // Nothing changed: the reply still loads.
      expect((handle.originalMessage()?.flags ?? 0) & 128).toBe(128);
    }
  });

  it('refuses the first follow-up after a defer the same way: it edits the loading message (#7529, §1.5)', async () => {
    const { result, handle } = await run(async (interaction) => {
      await interaction.deferReply();
      return outcome(interaction.followUp(card('b.png')));
    });
    expect(result).toMatchObject({ status: 400, code: 50035 });
    expect(handle.followUps).toHaveLength(1);
  });

  it('makes the first follow-up after a defer an edit of the loading message, ignoring the ephemeral flag', async () => {
    const { result, handle } = await run(async (interaction) => {
      await interaction.deferReply();
      return outcome(interaction.followUp({ content: 'just text', flags: MessageFlags.Ephemeral }));
    });
    expect(result.status).toBe(200);
    expect(result.message?.id).toBe(handle.originalMessage()?.id);
    expect(handle.originalMessage()).toMatchObject({ content: 'just text', flags: 0 });
  });

  it('posts the same card as a new message: a follow-up once the reply shows something, a type-4 reply, a channel message', async () => {
    const followed = await run(async (interaction) => {
      await interaction.deferReply();
      await interaction.editReply('working…');
      return outcome(interaction.followUp(card('c.png')));
    });
    expect(followed.result.status).toBe(200);
    expect(followed.result.message?.id).not.toBe(followed.handle.originalMessage()?.id);
    const replied = await run(async (interaction) => outcome(interaction.reply(card('d.png')).then(() => interaction.fetchReply())));
    expect(replied.result.status).toBe(200);
    const posted = await outcome(
      env.harness.client.rest.post(Routes.channelMessages(env.emulator.fixtures.guild.channels.general.id), {
        body: { flags: MessageFlags.IsComponentsV2, components: card('e.png').components, attachments: [{ id: 0, filename: 'e.png' }] },
        files: [{ name: 'e.png', data: png }],
      }),
    );
    expect(posted.status).toBe(200);
  });

  it('lets an edit show a file the message already has', async () => {
    const { result } = await run(async (interaction) => {
      await interaction.deferReply();
      const uploaded = await interaction.editReply({ content: 'uploading', files: [new AttachmentBuilder(png, { name: 'f.png' })] });
      const { files: _files, ...shown } = card('f.png');
      return outcome(interaction.editReply({ ...shown, content: '', attachments: [...uploaded.attachments.values()] }));
    });
    expect(result.status).toBe(200);
  });

  it("leaves a card's files out of `attachments` in REST answers, component interactions and context-menu targets, filling in the media items (#8277)", async () => {
    const { result, handle } = await run(async (interaction) => {
      await interaction.reply(card('g.png'));
      const message = await interaction.fetchReply();
      return env.harness.client.rest.get(Routes.channelMessage(message.channelId, message.id)) as Promise<APIMessage>;
    });
    expect(result.attachments).toEqual([]);
    const stored = handle.lastMessage()!;
    const attachment = stored.attachments[0]!;
    const gallery = (result.components as unknown as { components: { items?: { media: unknown }[] }[] }[])[0]!.components[0]!.items![0]!;
    expect(gallery.media).toMatchObject({
      url: attachment.url,
      proxy_url: attachment.proxy_url,
      width: 24,
      height: 16,
      content_type: 'image/png',
      attachment_id: attachment.id,
    });
    const click = env.emulator.button(stored, 'x', { user: env.emulator.fixtures.member });
    expect((click.payload['message'] as APIMessage).attachments).toEqual([]);
    const menu = env.emulator.messageCommand('Edit image', stored, { user: env.emulator.fixtures.member });
    const resolved = (menu.payload['data'] as { resolved: { messages: Record<string, APIMessage> } }).resolved.messages[stored.id]!;
    expect(resolved.attachments).toEqual([]);
  });

  it('defaults the upload limit to 20 MiB (PR #8578)', async () => {
    const { handle } = await run(async () => undefined);
    expect(handle.payload['attachment_size_limit']).toBe(20 * 1024 * 1024);
  });
});

describe('as Discord documents it (quirks off)', () => {
  const { run } = setUp({ cv2EditUploads: false, hiddenAttachments: false, followUpEditsLoading: false });

  it('edits the reply into a card that shows a file the edit uploads', async () => {
    const { result } = await run(async (interaction) => {
      await interaction.deferReply();
      return outcome(interaction.editReply(card('a.png')));
    });
    expect(result.status).toBe(200);
    expect(result.message?.attachments).toHaveLength(1);
  });

  it('makes every follow-up a new message, leaving the reply loading', async () => {
    const { result, handle } = await run(async (interaction) => {
      await interaction.deferReply();
      return outcome(interaction.followUp(card('b.png')));
    });
    expect(result.status).toBe(200);
    expect(result.message?.id).not.toBe(handle.originalMessage()?.id);
    expect((handle.originalMessage()?.flags ?? 0) & 128).toBe(128);
  });
});
