/**
 * Prompt help's enhance end to end (issue 19): `enhance:true` sends the member's prompt to PROMPT_MODEL with the
 * system instruction, generates from the model's answer and shows both prompts; its tokens go in the job's usage
 * record. A failing chat call falls back to the member's prompt with a note: the image job is still delivered and
 * charged once. Results of prompts typed without it (the Edit image modal's among them) offer ✨ Enhance: the same
 * request, its prompt rewritten first, charged to whoever clicks. Admins can turn it off per server. Real discord.js
 * client, both emulators, one SQLite file.
 */
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobUsage } from '../../src/service/usage-log.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import type { EmulatedMessage, InteractionHandle } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { customIds, ephemeralError, resultPost, lastText, quotaText, settled, textOf } from './support.js';

describe('enhance, end to end', () => {
  let h: Harness;
  let storage: Storage;
  beforeAll(async () => {
    h = await startHarness({ sqlite: true, env: { QUOTA_DEFAULT_LIMIT: '10', PROMPT_MODEL: 'gpt-4o-mini' } });
    storage = await openStorage({ url: h.config.STORAGE_URL, defaults: { limit: 5, period: 'day' }, jobLeaseMs: 60_000, logger: pino({ level: 'silent' }) });
  });
  afterAll(async () => {
    await storage.close();
    await (h as Harness | undefined)?.close();
  });

  const imagine = (prompt: string, enhance = true): InteractionHandle =>
    h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: prompt },
        { name: 'enhance', type: 5, value: enhance },
      ],
      { user: h.discord.fixtures.member },
    );
  /** A result card offering ✨ Enhance, kept to be pressed after prompt help is turned off. */
  let offered: { message: EmulatedMessage; id: string } | undefined;
  const jobIdOf = (handle: InteractionHandle) => customIds(resultPost(handle)?.payload)[0]?.split(':')[1] ?? '';
  const delivered = async (handle: InteractionHandle) => {
    await handle.waitFor(settled);
    const jobId = jobIdOf(handle);
    await h.waitForLog((entry) => entry.msg === 'image job delivered' && entry['jobId'] === jobId);
    return jobId;
  };

  it('registers enhance on /imagine and /edit', () => {
    const commands = h.discord.registeredCommands('global') as { name: string; options?: { name: string }[] }[];
    for (const name of ['imagine', 'edit']) expect(commands.find((c) => c.name === name)?.options?.map((o) => o.name)).toContain('enhance');
  });

  it("asks the chat model with the member's prompt, generates from its answer, shows both and records its tokens", async () => {
    const chatBefore = h.gateway.chatRequests().length;
    const imagesBefore = h.gateway.imageRequests().length;
    h.gateway.enqueueChat({ type: 'success', content: 'A tabby cat asleep on a sunlit windowsill, watercolour, soft morning light' });
    const handle = imagine('cat sleeping');
    const jobId = await delivered(handle);

    const chat = h.gateway.chatRequests().slice(chatBefore);
    expect(chat).toHaveLength(1);
    expect(chat[0]?.json).toMatchObject({ model: 'gpt-4o-mini', messages: [{ role: 'system' }, { role: 'user', content: 'cat sleeping' }] });
    expect(typeof chat[0]?.json?.['max_tokens']).toBe('number');
    const images = h.gateway.imageRequests().slice(imagesBefore);
    expect(images).toHaveLength(1);
    expect(images[0]?.json?.['prompt']).toBe('A tabby cat asleep on a sunlit windowsill, watercolour, soft morning light');
    expect(h.gateway.specViolations).toEqual([]);

    const card = textOf(resultPost(handle)?.payload);
    expect(card).toContain('**A tabby cat asleep on a sunlit windowsill, watercolour, soft morning light**');
    expect(card).toContain('Enhanced from your prompt: cat sleeping');

    const record = await storage.records('job-usage', JobUsage).get(jobId);
    expect(record?.promptHelp?.model).toBe('gpt-4o-mini');
    expect(record?.promptHelp?.usage?.inputTokens).toBeGreaterThan(0);
    expect(record?.promptHelp?.usage?.outputTokens).toBeGreaterThan(0);
    expect(await quotaText(h.discord, h.discord.fixtures.member)).toContain('You have 9 of 10 images left');
  });

  it("falls back to the member's prompt with a note when the chat call fails: delivered, charged once", async () => {
    const imagesBefore = h.gateway.imageRequests().length;
    const chatBefore = h.gateway.chatRequests().length;
    h.gateway.enqueueChat({ type: 'error', preset: 'server_error' });
    const handle = imagine('a red kite over the sea');
    const jobId = await delivered(handle);
    expect(h.gateway.chatRequests().slice(chatBefore)).toHaveLength(1);
    const images = h.gateway.imageRequests().slice(imagesBefore);
    expect(images.map((r) => r.json?.['prompt'])).toEqual(['a red kite over the sea']);
    const card = textOf(resultPost(handle)?.payload);
    expect(card).toContain('**a red kite over the sea**');
    expect(card).toContain("The prompt helper didn't answer, so I used your prompt as written.");
    expect(card).not.toContain('Enhanced from your prompt');
    expect((await storage.records('job-usage', JobUsage).get(jobId))?.delivered).toBe(1);
    expect(await quotaText(h.discord, h.discord.fixtures.member)).toContain('You have 8 of 10 images left');
  });

  it('does not call the chat model for a request that is refused', async () => {
    const chatBefore = h.gateway.chatRequests().length;
    const handle = h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: 'too many' },
        { name: 'count', type: 4, value: 9 },
        { name: 'enhance', type: 5, value: true },
      ],
      { user: h.discord.fixtures.member },
    );
    await handle.waitFor(settled);
    expect(lastText(handle)).toContain('8 of 10 left, and this needs 9');
    expect(h.gateway.chatRequests().slice(chatBefore)).toHaveLength(0);
  });

  it("offers ✨ Enhance under the Edit image modal's result: a click rewrites that prompt, edits the same image and is charged to the clicker", async () => {
    const { member, users } = h.discord.fixtures;
    const bytes = await sharp({ create: { width: 48, height: 48, channels: 3, background: '#204060' } })
      .png()
      .toBuffer();
    const target = h.discord.createUserMessage(h.discord.fixtures.guild.channels.general.id, users.member2, 'my photo', [
      h.discord.uploadAttachment(bytes, 'photo.png', 'image/png'),
    ]);
    const modal = await h.discord.messageCommand('Edit image', target, { user: member }).waitForAck();
    const submit = h.discord.modalSubmit(modal.body!.data!.custom_id!, { prompt: 'make it snowy' }, { user: member });
    const firstJob = await delivered(submit);
    const result = resultPost(submit)!.payload;
    const enhanceId = customIds(result).find((id) => id.startsWith('enh:'));
    expect(enhanceId).toBe(`enh:${firstJob}`);
    offered = { message: submit.lastMessage()!, id: enhanceId! };

    const chatBefore = h.gateway.chatRequests().length;
    const imagesBefore = h.gateway.imageRequests().length;
    const quotaBefore = await quotaText(h.discord, users.member2);
    h.gateway.enqueueChat({ type: 'success', content: 'The same street under fresh snow at dusk, flakes in the lamplight' });
    const click = h.discord.button(submit.lastMessage()!, enhanceId!, { user: users.member2 });
    await delivered(click);

    const chat = h.gateway.chatRequests().slice(chatBefore);
    expect(chat.map((c) => (c.json?.['messages'] as { content: string }[])[1]?.content)).toEqual(['make it snowy']);
    const edits = h.gateway.imageRequests().slice(imagesBefore);
    expect(edits).toHaveLength(1);
    expect(edits[0]?.form?.fields['prompt']).toBe('The same street under fresh snow at dusk, flakes in the lamplight');
    expect(edits[0]?.form?.files.filter((f) => f.field === 'image[]').map((f) => f.bytes)).toEqual([bytes]);
    const card = textOf(resultPost(click)?.payload);
    expect(card).toContain('**The same street under fresh snow at dusk, flakes in the lamplight**');
    expect(card).toContain('Enhanced from your prompt: make it snowy');
    expect(card).toContain(`<@${users.member2.id}>`);
    // An enhanced result is not offered Enhance again; the clicker paid for it, not the member who asked first.
    expect(customIds(resultPost(click)?.payload).some((id) => id.startsWith('enh:'))).toBe(false);
    expect(await quotaText(h.discord, users.member2)).not.toBe(quotaBefore);
    expect(await quotaText(h.discord, users.member2)).toContain('You have 9 of 10 images left');
  });

  it('keeps enhance through a cost confirmation: Generate rewrites the prompt, then generates from it', async () => {
    const admin = async (sub: string, options: { name: string; type: number; value: number }[] = []) => {
      const handle = h.discord.slash('settings', [{ name: sub, type: 1, options }], { user: h.discord.fixtures.admin });
      await handle.waitFor((x) => x.edits.some((e) => e.status === 200));
    };
    await admin('confirm-cost', [{ name: 'usd', type: 10, value: 0.1 }]);
    try {
      const chatBefore = h.gateway.chatRequests().length;
      const asked = h.discord.slash(
        'imagine',
        [
          { name: 'prompt', type: 3, value: 'lighthouse storm' },
          { name: 'enhance', type: 5, value: true },
          { name: 'model', type: 3, value: 'gpt-image-1' },
          { name: 'size', type: 3, value: '1024x1024' },
          { name: 'quality', type: 3, value: 'high' },
        ],
        { user: h.discord.fixtures.member },
      );
      await asked.waitFor((x) => x.edits.some((e) => e.status === 200 && customIds(e.payload).some((id) => id.startsWith('costok:'))));
      const question = asked.lastMessage()!;
      // Nothing asked of the chat model while the question waits.
      expect(h.gateway.chatRequests()).toHaveLength(chatBefore);
      h.gateway.enqueueChat({ type: 'success', content: 'A lighthouse in a storm at night, towering waves, oil painting' });
      const confirm = h.discord.button(
        question,
        customIds(question).find((id) => id.startsWith('costok:'))!,
        { user: h.discord.fixtures.member },
      );
      await delivered(confirm);
      expect(h.gateway.chatRequests()).toHaveLength(chatBefore + 1);
      expect(h.gateway.imageRequests().at(-1)?.json).toMatchObject({
        prompt: 'A lighthouse in a storm at night, towering waves, oil painting',
        quality: 'high',
      });
    } finally {
      await admin('confirm-cost');
    }
  });

  it('skips the chat model when the server turned prompt help off, and says so', async () => {
    const admin = h.discord.slash('settings', [{ name: 'prompt-help', type: 1, options: [{ name: 'enabled', type: 5, value: false }] }], {
      user: h.discord.fixtures.admin,
    });
    await admin.waitFor((x) => x.edits.some((e) => e.status === 200) || x.acks.some((a) => a.type === 4));
    const chatBefore = h.gateway.chatRequests().length;
    const handle = imagine('a quiet harbour');
    await delivered(handle);
    expect(h.gateway.chatRequests().slice(chatBefore)).toHaveLength(0);
    expect(textOf(resultPost(handle)?.payload)).toContain('Prompt help is off here, so I used your prompt as written.');
  });

  it('refuses ✨ Enhance where the server turned prompt help off: nothing asked, made or charged', async () => {
    const { users } = h.discord.fixtures;
    const first = imagine('a lantern festival', false);
    const jobId = await delivered(first);
    expect(customIds(resultPost(first)?.payload)).not.toContain(`enh:${jobId}`);
    // A card posted while prompt help was on still carries the button: pressing it now is refused.
    expect(offered).toBeDefined();
    const chatBefore = h.gateway.chatRequests().length;
    const imagesBefore = h.gateway.imageRequests().length;
    const quotaBefore = await quotaText(h.discord, users.member3);
    const click = h.discord.button(offered!.message, offered!.id, { user: users.member3 });
    await click.waitFor(settled);
    expect(ephemeralError(click)).toContain('Prompt help is turned off here.');
    expect(h.gateway.chatRequests().slice(chatBefore)).toHaveLength(0);
    expect(h.gateway.imageRequests().slice(imagesBefore)).toHaveLength(0);
    expect(await quotaText(h.discord, users.member3)).toBe(quotaBefore);
  });
});
