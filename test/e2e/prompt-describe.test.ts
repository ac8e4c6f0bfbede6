/**
 * Prompt help's describe end to end (issue 19): /describe and the Describe image menu send the image as a data URL
 * to VISION_MODEL (validated against the official spec by the emulator) and show its description and four prompts;
 * each Imagine this button starts a normal /imagine job with its prompt, after a restart too. Without PROMPT_MODEL
 * and VISION_MODEL, neither describe nor enhance is registered.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatedMessage, InteractionHandle } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { customIds, ephemeralError, resultPost, lastText, settled, textOf } from './support.js';

const ANSWER = [
  'A lighthouse on a rocky coast at dusk.',
  '1. a lighthouse on a rocky coast at dusk, oil painting',
  '2. a lighthouse at dusk, long exposure photograph',
  '3. a lighthouse silhouette against an orange sky, flat vector art',
  '4. a stormy sea around a lighthouse, dramatic watercolour',
].join('\n');

describe('describe, end to end', () => {
  let h: Harness;
  let png: Buffer;
  beforeAll(async () => {
    png = await sharp({ create: { width: 24, height: 16, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    h = await startHarness({ sqlite: true, env: { QUOTA_DEFAULT_LIMIT: '10', VISION_MODEL: 'gpt-4o-mini', DESCRIBE_COOLDOWN_SECONDS: '0' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const answered = (x: InteractionHandle) => x.edits.some((e) => e.status === 200 && customIds(e.payload).length > 0) || settled(x);

  it('registers /describe and the Describe image menu (and no enhance without PROMPT_MODEL)', () => {
    const commands = h.discord.registeredCommands('global') as { name: string; options?: { name: string }[] }[];
    expect(commands.map((c) => c.name)).toEqual(expect.arrayContaining(['describe', 'Describe image']));
    expect(commands.find((c) => c.name === 'imagine')?.options?.map((o) => o.name)).not.toContain('enhance');
  });

  it('sends the image as a data URL, shows the prompts, and Imagine this starts a job with its prompt, after a restart too', async () => {
    h.gateway.enqueueChat({ type: 'success', content: ANSWER });
    const attachment = h.discord.uploadAttachment(png, 'coast.png', 'image/png');
    const handle = h.discord.slash('describe', [{ name: 'image', type: 11, value: attachment.id }], { user: h.discord.fixtures.member });
    await handle.waitFor(answered);
    const [chat] = h.gateway.chatRequests();
    expect(chat?.json?.['model']).toBe('gpt-4o-mini');
    expect(JSON.stringify(chat?.json?.['messages'])).toContain(`data:image/png;base64,${png.toString('base64')}`);
    expect(h.gateway.specViolations).toEqual([]);
    const card: EmulatedMessage = handle.lastMessage()!;
    const text = textOf(card);
    expect(text).toContain('A lighthouse on a rocky coast at dusk.');
    expect(text).toContain('3. a lighthouse silhouette against an orange sky, flat vector art');
    const buttons = customIds(card);
    expect(buttons).toHaveLength(4);
    expect(h.gateway.imageRequests()).toHaveLength(0);

    await h.restart();
    const click = h.discord.button(card, buttons[2]!, { user: h.discord.fixtures.members[1]! });
    await click.waitFor(settled);
    expect(resultPost(click)).toBeDefined();
    expect(h.gateway.imageRequests().map((r) => r.json?.['prompt'])).toEqual(['a lighthouse silhouette against an orange sky, flat vector art']);
  });

  it('describes the image of a message from the menu', async () => {
    h.gateway.enqueueChat({ type: 'success', content: ANSWER });
    const before = h.gateway.chatRequests().length;
    const message = h.discord.createUserMessage(h.discord.fixtures.guild.channels.general.id, h.discord.fixtures.users.member2, 'look', [
      h.discord.uploadAttachment(png, 'photo.png', 'image/png'),
    ]);
    const handle = h.discord.messageCommand('Describe image', message, { user: h.discord.fixtures.member });
    await handle.waitFor(answered);
    expect(JSON.stringify(h.gateway.chatRequests()[before]?.json?.['messages'])).toContain('data:image/png;base64,');
    expect(customIds(handle.lastMessage())).toHaveLength(4);
  });

  it('is refused where the server turned prompt help off, before the vision model is asked', async () => {
    const admin = h.discord.slash('settings', [{ name: 'prompt-help', type: 1, options: [{ name: 'enabled', type: 5, value: false }] }], {
      user: h.discord.fixtures.admin,
    });
    await admin.waitFor((x) => x.edits.some((e) => e.status === 200) || x.acks.some((a) => a.type === 4));
    const before = h.gateway.chatRequests().length;
    const attachment = h.discord.uploadAttachment(png, 'coast.png', 'image/png');
    const handle = h.discord.slash('describe', [{ name: 'image', type: 11, value: attachment.id }], { user: h.discord.fixtures.member });
    await handle.waitFor(settled);
    expect(ephemeralError(handle) ?? lastText(handle)).toContain('Prompt help is turned off here.');
    expect(h.gateway.chatRequests()).toHaveLength(before);
    const on = h.discord.slash('settings', [{ name: 'prompt-help', type: 1, options: [{ name: 'enabled', type: 5, value: true }] }], {
      user: h.discord.fixtures.admin,
    });
    await on.waitFor((x) => x.edits.some((e) => e.status === 200) || x.acks.some((a) => a.type === 4));
  });

  it('says so, without charging anything, when the vision model fails', async () => {
    h.gateway.enqueueChat({ type: 'error', preset: 'server_error' });
    const attachment = h.discord.uploadAttachment(png, 'coast.png', 'image/png');
    const handle = h.discord.slash('describe', [{ name: 'image', type: 11, value: attachment.id }], { user: h.discord.fixtures.member });
    await handle.waitFor(settled);
    expect(ephemeralError(handle) ?? lastText(handle)).toContain("couldn't describe this image");
  });
});

describe('prompt help unconfigured, end to end', () => {
  it('registers neither describe nor enhance', async () => {
    const h = await startHarness();
    try {
      const commands = h.discord.registeredCommands('global') as { name: string; options?: { name: string }[] }[];
      expect(commands.map((c) => c.name)).not.toContain('describe');
      expect(commands.map((c) => c.name)).not.toContain('Describe image');
      for (const name of ['imagine', 'edit']) expect(commands.find((c) => c.name === name)?.options?.map((o) => o.name)).not.toContain('enhance');
    } finally {
      await h.close();
    }
  });
});
