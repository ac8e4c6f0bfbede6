/**
 * Spoilers (issue 32), end to end with the real discord.js client: in a server's spoiler channel the result's uploads
 * say `is_spoiler` (Discord keeps the IS_SPOILER flag on them) and its card's gallery blurs them; a member's own
 * spoilered image (an attachment flagged IS_SPOILER, or named SPOILER_) on /edit or Edit image makes a spoilered result
 * in an ordinary channel too; and Reveal and Hide show the card again with its gallery un-blurred or blurred, for the
 * member who asked only, with the same files, no job and no charge.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IS_SPOILER, type EmulatedMessage, type InteractionHandle, type UserFixture } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { customIds, ephemeralError, quotaText, resultPost, settled, spoilerUploads } from './support.js';

/** The `spoiler` of every media gallery item of a message, in order (an item without one: false). */
function gallerySpoilers(message: { components?: unknown } | undefined): boolean[] {
  const found: boolean[] = [];
  const visit = (component: { type?: number; items?: { spoiler?: boolean }[]; components?: unknown[] }) => {
    if (component.type === 12) for (const item of component.items ?? []) found.push(item.spoiler === true);
    for (const child of component.components ?? []) visit(child as typeof component);
  };
  for (const component of (message?.components as unknown[] | undefined) ?? []) visit(component as { type?: number });
  return found;
}

/** Whether each attachment of a stored message carries the IS_SPOILER flag. */
const flagged = (message: EmulatedMessage | undefined) => (message?.attachments ?? []).map((a) => ((a.flags ?? 0) & IS_SPOILER) !== 0);

describe('spoilers', () => {
  let h: Harness;
  let spoilerChannel: string;
  let png: Buffer;

  beforeAll(async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '50', LOG_LEVEL: 'debug' } });
    const { guild, admin } = h.discord.fixtures;
    spoilerChannel = guild.channels.nsfw.id;
    const set = h.discord.slash('settings', [{ name: 'spoilers', type: 1, options: [{ name: 'channel1', type: 7, value: spoilerChannel }] }], { user: admin });
    await set.waitFor((x) => x.edits.some((e) => e.status === 200));
    png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  /** Waits for `handle`'s result card and for the job to be archived (its buttons work from then on). */
  async function delivered(handle: InteractionHandle): Promise<EmulatedMessage> {
    await handle.waitFor((x) => resultPost(x) !== undefined);
    await h.waitForLog((e) => e['interactionId'] === handle.id && e.msg === 'interaction handled');
    const message = handle.lastMessage();
    expect(message, 'the result card').toBeDefined();
    return message!;
  }

  const imagine = (prompt: string, channelId: string) =>
    delivered(h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: prompt }], { user: h.discord.fixtures.member, channelId }));

  const edit = (image: { id: string }) =>
    h.discord.slash(
      'edit',
      [
        { name: 'prompt', type: 3, value: 'in watercolour' },
        { name: 'image', type: 11, value: image.id },
      ],
      { user: h.discord.fixtures.member },
    );

  it('posts results in a spoiler channel with is_spoiler uploads (IS_SPOILER kept) and a blurred gallery, plain names, and Reveal', async () => {
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'a hidden garden' }], {
      user: h.discord.fixtures.member,
      channelId: spoilerChannel,
    });
    const card = await delivered(handle);
    const post = resultPost(handle);
    expect(spoilerUploads(post)).toEqual([true]);
    expect(post?.files.map((f) => f.filename)).toEqual(['a-hidden-garden-1.png']);
    expect(flagged(card)).toEqual([true]);
    expect(gallerySpoilers(card)).toEqual([true]);
    expect(customIds(card).filter((id) => id.startsWith('spoil:'))).toEqual([expect.stringMatching(/^spoil:[\w-]+:show$/)]);

    const ordinary = await imagine('an open garden', h.discord.fixtures.guild.channels.general.id);
    expect(flagged(ordinary)).toEqual([false]);
    expect(gallerySpoilers(ordinary)).toEqual([false]);
    expect(customIds(ordinary).some((id) => id.startsWith('spoil:'))).toBe(false);
    expect(h.discord.specViolations).toEqual([]);
  });

  it('posts a spoilered result in an ordinary channel when the member’s own input image (on /edit, or a reference) is a spoiler', async () => {
    const flaggedInput = await delivered(edit(h.discord.uploadAttachment(png, 'secret.png', 'image/png', { spoiler: true })));
    expect(flagged(flaggedInput)).toEqual([true]);
    expect(gallerySpoilers(flaggedInput)).toEqual([true]);

    const namedInput = await delivered(edit(h.discord.uploadAttachment(png, 'SPOILER_secret.png', 'image/png')));
    expect(flagged(namedInput)).toEqual([true]);

    const plainInput = await delivered(edit(h.discord.uploadAttachment(png, 'open.png', 'image/png')));
    expect(flagged(plainInput)).toEqual([false]);
    expect(gallerySpoilers(plainInput)).toEqual([false]);

    const styled = h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: 'a lighthouse' },
        { name: 'style_ref', type: 11, value: h.discord.uploadAttachment(png, 'style.png', 'image/png', { spoiler: true }).id },
      ],
      { user: h.discord.fixtures.member },
    );
    const fromReference = await delivered(styled);
    expect(h.gateway.imageRequests().at(-1)?.path).toBe('/v1/images/edits');
    expect(flagged(fromReference)).toEqual([true]);
    expect(gallerySpoilers(fromReference)).toEqual([true]);
  });

  it('posts a spoilered result from Edit image on a member’s spoilered attachment', async () => {
    const { member, member2 } = h.discord.fixtures.users;
    const general = h.discord.fixtures.guild.channels.general.id;
    const source = h.discord.createUserMessage(general, member2, 'do not look', [h.discord.uploadAttachment(png, 'plot.png', 'image/png', { spoiler: true })]);
    const modal = await h.discord.messageCommand('Edit image', source, { user: member }).waitForAck();
    expect(modal.type).toBe(9);
    const card = await delivered(h.discord.modalSubmit(modal.body!.data!.custom_id!, { prompt: 'as a poster' }, { user: member }));
    expect(flagged(card)).toEqual([true]);
    expect(gallerySpoilers(card)).toEqual([true]);
  });

  /** Clicks the card's Reveal/Hide as `user`; resolves once it was answered (the card updated, or a refusal). */
  async function toggle(message: EmulatedMessage, user: UserFixture): Promise<InteractionHandle> {
    const id = customIds(message).find((c) => c.startsWith('spoil:'));
    expect(id, 'Reveal/Hide button').toBeDefined();
    const click = h.discord.button(message, id!, { user, channelId: message.channel_id });
    await click.waitFor((x) => settled(x) || x.acks.some((a) => a.type === 7 && a.status < 300));
    return click;
  }
  const current = (id: string) => h.discord.messages.get(id);

  it('lets the requester reveal and hide the card again (same files, no job, no charge); anyone else is refused', async () => {
    const { member, member2 } = h.discord.fixtures.users;
    const card = await imagine('a masked stranger', spoilerChannel);
    const files = card.attachments.map((a) => a.id);
    const requests = h.gateway.imageRequests().length;
    const quota = await quotaText(h.discord, member);

    const stranger = await toggle(card, member2);
    expect(ephemeralError(stranger)).toContain('Only the member who asked for these images can reveal or hide them.');
    expect(current(card.id)?.components).toEqual(card.components);

    const reveal = await toggle(card, member);
    // The same files, kept by id (v10 PATCH semantics): nothing uploaded again.
    expect(reveal.acks[0]).toMatchObject({ type: 7, files: [] });
    expect(reveal.acks[0]?.body?.data?.attachments).toEqual(files.map((id) => ({ id, is_spoiler: false })));
    const revealed = current(card.id);
    expect(gallerySpoilers(revealed)).toEqual([false]);
    // The files' IS_SPOILER flag follows, so no client blurs them by the flag.
    expect(flagged(revealed)).toEqual([false]);
    expect(revealed?.attachments.map((a) => a.id)).toEqual(files);
    expect(customIds(revealed).filter((id) => id.startsWith('spoil:'))).toEqual([expect.stringMatching(/:hide$/)]);

    await toggle(revealed!, member);
    const hidden = current(card.id);
    expect(gallerySpoilers(hidden)).toEqual([true]);
    expect(flagged(hidden)).toEqual([true]);
    expect(hidden?.attachments.map((a) => a.id)).toEqual(files);
    expect(customIds(hidden).filter((id) => id.startsWith('spoil:'))).toEqual([expect.stringMatching(/:show$/)]);

    expect(h.gateway.imageRequests()).toHaveLength(requests);
    expect(await quotaText(h.discord, member)).toBe(quota);
    expect(h.discord.specViolations).toEqual([]);
  });

  it('posts a starred result to a showcase channel that is a spoiler channel as a spoiler', async () => {
    const { admin, member2 } = h.discord.fixtures.users;
    const set = h.discord.slash('settings', [{ name: 'showcase', type: 1, options: [{ name: 'channel', type: 7, value: spoilerChannel }] }], { user: admin });
    await set.waitFor((x) => x.edits.some((e) => e.status === 200));
    const card = await imagine('a shy comet', h.discord.fixtures.guild.channels.general.id);
    const star = h.discord.button(
      card,
      customIds(card).find((id) => id.endsWith(':fv'))!,
      { user: member2 },
    );
    await star.waitFor((x) => x.edits.some((e) => e.status === 200));
    const post = h.discord.channelPosts.filter((p) => p.path === `/channels/${spoilerChannel}/messages` && p.status === 200).at(-1);
    expect(spoilerUploads(post)).toEqual([true]);
    expect(gallerySpoilers(post?.payload)).toEqual([true]);
    expect(post?.files.map((f) => f.filename)).not.toContain(expect.stringMatching(/^SPOILER_/));
  });

  it('keeps a spoiler a spoiler when the result is handed off to the channel, or to a direct message', async () => {
    const user = h.discord.fixtures.members[0]!;
    for (const [posts, deny] of [
      [h.discord.channelPosts, false],
      [h.discord.dmPosts, true],
    ] as const) {
      if (deny) h.discord.denyChannelPosts(spoilerChannel);
      try {
        const posted = () => posts.filter((p) => p.status === 200);
        const before = posted().length;
        const held = h.gateway.hold();
        const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'a slow secret' }], { user, channelId: spoilerChannel });
        await handle.waitForAck();
        await held.arrived;
        // The job outlives the 15-minute token: the card goes to the channel (or a DM) instead.
        h.discord.clock.advance(16 * 60_000);
        held.release();
        await vi.waitFor(() => expect(posted().length).toBeGreaterThan(before), { timeout: 20_000 });
        const post = posted().at(-1);
        expect(spoilerUploads(post)).toEqual([true]);
        expect(gallerySpoilers(post?.payload)).toEqual([true]);
      } finally {
        if (deny) h.discord.allowChannelPosts(spoilerChannel);
      }
    }
    expect(h.discord.specViolations).toEqual([]);
  });
});
