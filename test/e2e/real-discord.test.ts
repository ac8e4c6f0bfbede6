/**
 * The bot on Discord as it is (issue 27), with the Discord emulator playing its public bugs (the default):
 * - an edit may not show a file it uploads in a Components V2 gallery (discord-api-docs#7529), so every card arrives
 *   as a new message under the reply, which becomes a pointer to it, with one request more than the documented edit
 *   and nothing left "thinking…";
 * - a card's files are left out of `attachments` (#8277), so the actions, *Edit image* and /show read the media items;
 * - the upload limit is the interaction's (20 MiB by default since PR #8578), not a constant.
 * With the quirks turned off, the documented Discord, the same delivery works too.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatedMessage, InteractionHandle } from '../emulators/discord/index.js';
import { padPng } from '../emulators/gateway/png-padding.js';
import { startHarness, type Harness } from './harness.js';
import { customIds, resultPost, settled, textOf } from './support.js';

const LOADING = 128;

/** Every write of an interaction after its acknowledgement: edits of the reply and posts under it, in order. */
function writes(handle: InteractionHandle) {
  return [...handle.edits.map((e) => ['edit', e] as const), ...handle.followUps.map((f) => ['post', f] as const)].sort(
    (a, b) => a[1].receivedAt - b[1].receivedAt,
  );
}

describe('delivery on real Discord (the emulator plays #7529, #8277 and the loading follow-up)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '50', LOG_LEVEL: 'debug' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const delivered = async (handle: InteractionHandle): Promise<EmulatedMessage> => {
    await handle.waitFor((x) => resultPost(x) !== undefined);
    await h.waitForLog((e) => e['interactionId'] === handle.id && e.msg === 'interaction handled');
    return handle.lastMessage()!;
  };

  it('posts a quick result as a new card under the reply, which already says it is below: one request more than an edit', async () => {
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'quick one' }], { user: h.discord.fixtures.member });
    const card = await delivered(handle);
    // No progress came first: the reply was edited once (so the follow-up is a new message), then the card followed.
    expect(writes(handle).map(([kind, w]) => `${kind} ${w.status}`)).toEqual(['edit 200', 'post 200']);
    expect(textOf(handle.originalMessage())).toBe('⬇️ Your images are just below.');
    expect(card.id).not.toBe(handle.originalMessage()!.id);
    expect(card.flags).toBe(32768);
    expect(textOf(card)).toContain('**quick one**');
    for (const id of [handle.originalMessage()!.id, card.id]) expect((h.discord.messages.get(id)!.flags ?? 0) & LOADING).toBe(0);
  });

  it('shows progress as an embed, then posts the card and points the reply at it', async () => {
    const held = h.gateway.hold();
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'slow one' }], { user: h.discord.fixtures.member });
    await held.arrived;
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200 && textOf(e.payload).includes('Generating')));
    held.release();
    const card = await delivered(handle);
    await handle.waitFor((x) => textOf(x.originalMessage()).startsWith('✅'));
    const kinds = writes(handle).map(([kind, w]) => `${kind} ${w.status}`);
    // Progress edits, the card, the pointer: one request more than the card as an edit would have taken.
    expect(kinds.slice(-2)).toEqual(['post 200', 'edit 200']);
    expect(kinds.slice(0, -2).every((k) => k === 'edit 200')).toBe(true);
    expect(textOf(handle.originalMessage())).toBe(
      `✅ Done. Your images: https://discord.com/channels/${h.discord.fixtures.guild.id}/${card.channel_id}/${card.id}`,
    );
    expect(handle.originalMessage()!.embeds).toEqual([]);
    expect(handle.edits[0]!.payload!.embeds![0]!.description).toContain('Generating');
  });

  it('reads the images of its own cards from their media items, where Discord leaves `attachments` empty (#8277)', async () => {
    const card = await delivered(h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'iterate on me' }], { user: h.discord.fixtures.member }));
    const image = Buffer.from(await (await fetch(card.attachments[0]!.url)).arrayBuffer());
    const vary = h.discord.button(
      card,
      customIds(card).find((id) => id.endsWith(':vs'))!,
      { user: h.discord.fixtures.member },
    );
    // What the bot received: the card without attachments, its image only in the gallery.
    expect((vary.payload['message'] as EmulatedMessage).attachments).toEqual([]);
    const varied = await delivered(vary);
    const sent = h.gateway.imageRequests().at(-1)!;
    expect(sent.path).toBe('/v1/images/edits');
    expect(sent.form!.files.find((f) => f.field.startsWith('image'))!.bytes.equals(image)).toBe(true);
    expect(textOf(varied)).toContain('**iterate on me**');

    // Edit image on the card reads the gallery too.
    const menu = h.discord.messageCommand('Edit image', card, { user: h.discord.fixtures.member });
    const modal = await menu.waitForAck();
    expect(modal.type).toBe(9);

    // /show fetches the card again (GET answers `attachments: []` too) and posts its image anew.
    const jobId = customIds(card)[0]!.split(':')[1]!;
    const shown = h.discord.slash('show', [{ name: 'job', type: 3, value: jobId }], { user: h.discord.fixtures.member });
    const repost = await delivered2(shown);
    const reposted = Buffer.from(await (await fetch(repost.attachments[0]!.url)).arrayBuffer());
    expect(reposted.equals(image)).toBe(true);
  });

  const delivered2 = async (handle: InteractionHandle): Promise<EmulatedMessage> => {
    await handle.waitFor((x) => x.followUps.some((f) => f.status === 200 && f.files.length > 0));
    return handle.lastMessage()!;
  };

  it("posts an image up to the interaction's upload limit as it is (20 MiB by default), not against a constant", async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const big = padPng(png, 12 * 1024 * 1024);
    h.gateway.enqueue({
      type: 'raw',
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ created: 1, data: [{ b64_json: big.toString('base64') }] }),
    });
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'twelve megabytes' }], { user: h.discord.fixtures.member });
    await handle.waitFor(settled);
    expect(handle.payload['attachment_size_limit']).toBe(20 * 1024 * 1024);
    const post = resultPost(handle)!;
    expect(post.files[0]!.bytes.length).toBe(big.length);
    expect(textOf(post.payload)).not.toMatch(/re-encoded|smaller/i);
  });

  it('sent nothing the platforms would reject', () => {
    expect(h.discord.specViolations).toEqual([]);
    expect(h.gateway.specViolations).toEqual([]);
  });
});

describe('delivery on Discord as documented (quirks off)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      discord: { quirks: { cv2EditUploads: false, hiddenAttachments: false, followUpEditsLoading: false } },
      env: { LOG_LEVEL: 'debug' },
    });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it('delivers the same way, and Vary reads the attachments Discord then lists', async () => {
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'documented' }], { user: h.discord.fixtures.member });
    await handle.waitFor((x) => resultPost(x) !== undefined);
    await h.waitForLog((e) => e['interactionId'] === handle.id && e.msg === 'interaction handled');
    const card = handle.lastMessage()!;
    expect(textOf(handle.originalMessage())).toBe('⬇️ Your images are just below.');
    const vary = h.discord.button(
      card,
      customIds(card).find((id) => id.endsWith(':vs'))!,
      { user: h.discord.fixtures.member },
    );
    expect((vary.payload['message'] as EmulatedMessage).attachments).toHaveLength(1);
    await vary.waitFor((x) => resultPost(x) !== undefined);
    expect(h.gateway.imageRequests().at(-1)!.path).toBe('/v1/images/edits');
  });
});
