/**
 * Result cards and the actions on them, end to end (issue 18): results come as Components V2 cards the Discord
 * emulator validates; Vary, Zoom out, Pan, Vary region, Enlarge and Remix each send the gateway the request they
 * stand for (checked on the bytes: the canvas size, the mask's transparent area, the fidelity) and deliver; on a
 * card of several images, U2 posts the second image as a card of its own and its actions use that image; actions
 * work after a restart; a model without edits shows none of them.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALISTIC_MODELS } from '../emulators/gateway/index.js';
import type { EmulatedMessage, InteractionHandle, SlashOption } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { customIds, ephemeralError, pressDelete, resultPost, quotaText, settled, textOf } from './support.js';

/** The alpha of the pixel at (x, y) of a PNG. */
async function alphaAt(png: Buffer, x: number, y: number): Promise<number> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return data[(y * info.width + x) * info.channels + 3] ?? -1;
}

describe('result cards and their actions, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sqlite: true, gateway: { models: REALISTIC_MODELS }, env: { QUOTA_DEFAULT_LIMIT: '50', LOG_LEVEL: 'debug' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const imagine = async (options: SlashOption[]): Promise<EmulatedMessage> => {
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'a lighthouse at dusk' }, ...options], { user: h.discord.fixtures.member });
    await handle.waitFor((x) => resultPost(x) !== undefined);
    await h.waitForLog((e) => e['interactionId'] === handle.id && e.msg === 'interaction handled');
    return handle.lastMessage()!;
  };
  const click = async (message: EmulatedMessage, code: string, user = h.discord.fixtures.member): Promise<InteractionHandle> => {
    const id = customIds(message).find((c) => c.endsWith(`:${code}`));
    expect(id, `button ${code}`).toBeDefined();
    const handle = h.discord.button(message, id!, { user });
    await handle.waitFor(settled);
    await h.waitForLog((e) => e['interactionId'] === handle.id && (e.msg === 'interaction handled' || e.msg === 'user-facing error'));
    return handle;
  };
  const bytesOf = async (message: EmulatedMessage, index = 0): Promise<Buffer> =>
    Buffer.from(await (await fetch(message.attachments[index]!.url)).arrayBuffer());
  const lastEdit = () => {
    const sent = h.gateway.imageRequests().at(-1)!;
    expect(sent.path).toBe('/v1/images/edits');
    return {
      fields: sent.form!.fields,
      image: sent.form!.files.find((f) => f.field.startsWith('image'))!.bytes,
      mask: sent.form!.files.find((f) => f.field === 'mask')?.bytes,
    };
  };

  it('posts a result as a Components V2 card: the image in a gallery, the prompt and parameters, and the actions', async () => {
    const card = await imagine([{ name: 'size', type: 3, value: '1024x1024' }]);
    expect(card.flags! & 32768).toBe(32768);
    expect(card.content).toBe('');
    const container = card.components![0] as { type: number; components: { type: number; items?: { media: { url: string }; description: string }[] }[] };
    expect(container.type).toBe(17);
    expect(container.components[0]!.items![0]!.media.url).toBe(`attachment://${card.attachments[0]!.filename}`);
    expect(container.components[0]!.items![0]!.description).toBe('a lighthouse at dusk');
    expect(textOf(card)).toContain('**a lighthouse at dusk**');
    expect(textOf(card)).toMatch(/Imagined for <@\d+> · gpt-image-2\.6-flare · 1024×1024 · auto quality/);
    const codes = customIds(card).map((id) => id.split(':').at(-1));
    expect(codes).toEqual([
      'vs',
      'vx',
      'rg',
      'rm',
      'en',
      'z15',
      'z2',
      'pl',
      'pr',
      'pu',
      'pd',
      'fv',
      'em',
      'st',
      expect.any(String),
      expect.any(String),
      expect.any(String),
    ]);
    expect(h.discord.specViolations).toEqual([]);
  });

  it('Vary (Subtle) and (Strong) edit the image with the same prompt at high and low fidelity, charged to whoever clicks', async () => {
    const card = await imagine([{ name: 'size', type: 3, value: '1024x1024' }]);
    const original = await bytesOf(card);
    const { member2 } = h.discord.fixtures.users;
    const before = await quotaText(h.discord, member2);
    const subtle = await click(card, 'vs', member2);
    expect(resultPost(subtle)).toBeDefined();
    const sent = lastEdit();
    expect(sent.image.equals(original)).toBe(true);
    expect(sent.fields).toMatchObject({ prompt: 'a lighthouse at dusk', input_fidelity: 'high', size: '1024x1024', model: 'gpt-image-2.6-flare' });
    expect(await quotaText(h.discord, member2)).not.toBe(before);
    // Each card says what was done, for whom.
    expect(textOf(resultPost(subtle)!.payload)).toContain(`Varied (subtle) for <@${member2.id}>`);
    const strong = await click(card, 'vx');
    expect(lastEdit().fields).toMatchObject({ input_fidelity: 'low' });
    expect(textOf(resultPost(strong)!.payload)).toContain('Varied (strong) for <@');
  });

  it('Zoom out 2x sends the image at half scale centred on a transparent canvas, with a mask open around it', async () => {
    const card = await imagine([{ name: 'size', type: 3, value: '1024x1024' }]);
    const zoomed = await click(card, 'z2');
    expect(textOf(resultPost(zoomed)!.payload)).toContain('Zoomed out 2× for <@');
    const { fields, image, mask } = lastEdit();
    expect(fields['size']).toBe('1024x1024');
    expect(await sharp(image).metadata()).toMatchObject({ width: 1024, height: 1024, format: 'png' });
    // The original fills 256…768 on both axes.
    expect(await alphaAt(image, 10, 10)).toBe(0);
    expect(await alphaAt(image, 512, 512)).toBe(255);
    expect(await alphaAt(mask!, 10, 10)).toBe(0);
    expect(await alphaAt(mask!, 250, 512)).toBe(0);
    expect(await alphaAt(mask!, 260, 512)).toBe(255);
    expect(await alphaAt(mask!, 512, 512)).toBe(255);
  });

  it('Pan right widens the canvas to 1536x1024 with the original on the left and the new area on the right', async () => {
    const card = await imagine([{ name: 'size', type: 3, value: '1024x1024' }]);
    expect(resultPost(await click(card, 'pr'))).toBeDefined();
    const { fields, mask } = lastEdit();
    expect(fields['size']).toBe('1536x1024');
    expect(await sharp(mask).metadata()).toMatchObject({ width: 1536, height: 1024 });
    expect(await alphaAt(mask!, 1020, 500)).toBe(255);
    expect(await alphaAt(mask!, 1030, 500)).toBe(0);
  });

  it('Vary region edits only the chosen cells; Enlarge asks for the largest size at high fidelity; Remix runs the changed prompt', async () => {
    const card = await imagine([{ name: 'size', type: 3, value: '1024x1024' }]);
    const regionId = customIds(card).find((c) => c.endsWith(':rg'))!;
    const opened = h.discord.button(card, regionId, { user: h.discord.fixtures.member });
    const modal = await opened.waitForAck();
    expect(modal.type).toBe(9);
    const region = h.discord.modalSubmit(
      modal.body!.data!.custom_id!,
      { cells: ['2'], prompt: 'a full moon' },
      { user: h.discord.fixtures.member, message: card },
    );
    await region.waitFor((x) => resultPost(x) !== undefined);
    const { fields, mask } = lastEdit();
    expect(fields).toMatchObject({ prompt: 'a full moon', size: '1024x1024' });
    // Cell 2 is the top right third: open there, closed everywhere else.
    expect(await alphaAt(mask!, 900, 100)).toBe(0);
    expect(await alphaAt(mask!, 100, 100)).toBe(255);
    expect(await alphaAt(mask!, 900, 900)).toBe(255);

    await click(card, 'en');
    expect(lastEdit().fields).toMatchObject({ size: '1920x1920', input_fidelity: 'high' });

    const remixId = customIds(card).find((c) => c.endsWith(':rm'))!;
    const remixModal = await h.discord.button(card, remixId, { user: h.discord.fixtures.member }).waitForAck();
    const prefilled = JSON.stringify(remixModal.body!.data!.components);
    expect(prefilled).toContain('"value":"a lighthouse at dusk"');
    const remix = h.discord.modalSubmit(
      remixModal.body!.data!.custom_id!,
      { prompt: 'a lighthouse at dawn', size: '1536x1024', quality: 'low', mode: ['new'] },
      { user: h.discord.fixtures.member, message: card },
    );
    await remix.waitFor((x) => resultPost(x) !== undefined);
    const generated = h.gateway.imageRequests().at(-1)!;
    expect(generated.path).toBe('/v1/images/generations');
    expect(generated.json).toMatchObject({ prompt: 'a lighthouse at dawn', size: '1536x1024', quality: 'low' });
  });

  it('on a card of several images, U2 posts the second as its own card, whose actions use it; they work after a restart', async () => {
    const card = await imagine([
      { name: 'size', type: 3, value: '1024x1024' },
      { name: 'count', type: 4, value: 2 },
    ]);
    const codes = customIds(card).map((id) => id.split(':').at(-1));
    expect(codes.slice(0, 2)).toEqual(['u0', 'u1']);
    expect(codes).not.toContain('vs');
    const second = await bytesOf(card, 1);
    const requests = h.gateway.imageRequests().length;
    const picked = await click(card, 'u1');
    expect(h.gateway.imageRequests()).toHaveLength(requests);
    const own = picked.lastMessage()!;
    expect((await bytesOf(own)).equals(second)).toBe(true);
    expect(customIds(own).map((id) => id.split(':').at(-1))).toContain('vs');

    await h.restart();
    expect(resultPost(await click(own, 'vs'))).toBeDefined();
    expect(lastEdit().image.equals(second)).toBe(true);
  });

  it('U1 clicked by another member posts a card that still credits the requester, which only they may delete', async () => {
    const card = await imagine([{ name: 'count', type: 4, value: 2 }]);
    const { member, member2 } = h.discord.fixtures.users;
    const picked = await click(card, 'u0', member2);
    const copy = picked.lastMessage()!;
    expect(textOf(copy)).toContain(`Imagined for <@${member.id}>`);
    expect(textOf(copy)).not.toContain(`<@${member2.id}>`);
    const deleteId = customIds(copy).find((id) => id.startsWith('delres:'))!;
    const refused = h.discord.button(copy, deleteId, { user: member2 });
    await refused.waitFor(settled);
    expect(ephemeralError(refused)).toBeDefined();
    expect(h.discord.messages.has(copy.id)).toBe(true);
    await pressDelete(h.discord, copy, member, 'delok');
    expect(h.discord.messages.has(copy.id)).toBe(false);
  });

  it('shows no image actions for a model that cannot edit, and refuses a stale one before charging', async () => {
    const card = await imagine([{ name: 'model', type: 3, value: 'dall-e-3' }]);
    const codes = customIds(card).map((id) => id.split(':').at(-1));
    expect(codes).toContain('rm');
    expect(codes.filter((c) => ['vs', 'vx', 'rg', 'z15', 'z2', 'pl', 'en'].includes(c!))).toEqual([]);
    // A Vary forged onto this card (an old card, or a changed model) is refused with the reason, before anything is sent.
    const jobId = customIds(card)[0]!.split(':')[1]!;
    const requests = h.gateway.imageRequests().length;
    const forged = h.discord.button(card, `act:${jobId}:vs`, { user: h.discord.fixtures.member });
    await forged.waitFor(settled);
    expect(ephemeralError(forged)).toContain("dall-e-3 can't vary or extend an image");
    expect(h.gateway.imageRequests()).toHaveLength(requests);
    expect(h.discord.specViolations).toEqual([]);
  });
});
