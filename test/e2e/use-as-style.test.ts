/**
 * Use as style (issue 32) end to end: the context menu on a message opens a prompt modal, and its submit runs an
 * /imagine whose style reference is the message's first image, sent to the edits endpoint with a prompt that names
 * it, charged once and shown (card, history) with the member's prompt; only that one image is parked and sent, even
 * under a modal id moved between Edit image's family and its own; a message without images is refused at once with
 * nothing fetched, sent or charged; the quota gate applies; a gateway failure refunds.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatedMessage, InteractionHandle, UserFixture } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { acceptedAcks, ephemeralError, quotaText, resultPost, settled, textOf, blockMember } from './support.js';

async function png(color: string, width = 48, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

/** The "N of M images left" of /quota show's text. */
const left = (text: string) => Number(/(\d+) of \d+ images? left/.exec(text)?.[1]);

describe('Use as style', () => {
  let h: Harness;
  beforeAll(async () => {
    // Debug logs: 'interaction handled' tells when a job's bookkeeping (its history record) is done.
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '10', LOG_LEVEL: 'debug' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const general = () => h.discord.fixtures.guild.channels.general.id;
  const handled = (handle: InteractionHandle) =>
    h.waitForLog((e) => e['interactionId'] === handle.id && (e.msg === 'interaction handled' || e.msg === 'user-facing error'));

  /** Runs Use as style on `target` as `user`: the modal, then `prompt`; returns the modal and the submit once settled. */
  async function useAsStyle(target: EmulatedMessage, user: UserFixture, prompt: string) {
    const modal = await h.discord.messageCommand('Use as style', target, { user }).waitForAck();
    expect(modal.type).toBe(9);
    const submit = h.discord.modalSubmit(modal.body!.data!.custom_id!, { prompt }, { user });
    await submit.waitFor(settled);
    await handled(submit);
    return { modal, submit };
  }

  /** The image[] parts and prompt of the last image request, and its path. */
  function lastRequest() {
    const request = h.gateway.imageRequests().at(-1);
    const form = request?.form;
    if (!form) throw new Error('no multipart image request was sent');
    return { path: request.path, images: form.files.filter((f) => f.field === 'image[]').map((f) => f.bytes), prompt: String(form.fields['prompt']) };
  }

  it('registers the menu, localized', () => {
    const menu = h.discord.registeredCommands('global').find((c) => (c as { name: string }).name === 'Use as style') as
      { type: number; name_localizations?: Record<string, string> } | undefined;
    expect(menu?.type).toBe(3);
    expect(menu?.name_localizations).toMatchObject({ fr: 'Utiliser comme style', 'es-419': 'Usar como estilo' });
  });

  it("runs an /imagine with the message's first image as its style reference, charged once, shown with the member's prompt", async () => {
    const user = h.discord.fixtures.members[1]!;
    const [style, other] = [await png('#ff0000'), await png('#0000ff', 40, 64)];
    const target = h.discord.createUserMessage(general(), h.discord.fixtures.users.member2, 'my palette', [
      h.discord.uploadAttachment(style, 'style.png', 'image/png'),
      h.discord.uploadAttachment(Buffer.from('notes'), 'notes.txt', 'text/plain'),
      h.discord.uploadAttachment(other, 'other.png', 'image/png'),
    ]);
    const before = { quota: left(await quotaText(h.discord, user)), requests: h.gateway.imageRequests().length };
    const { modal, submit } = await useAsStyle(target, user, 'a *quiet* harbour');
    expect(JSON.stringify(modal.body)).toContain("The message's first image gives the style.");

    expect(h.gateway.imageRequests().length).toBe(before.requests + 1);
    const sent = lastRequest();
    expect(sent.path).toMatch(/\/images\/edits$/);
    expect(sent.images).toEqual([style]);
    expect(sent.prompt).toMatch(/^Image 1 is the style reference: use its style, palette and rendering, not its content\.\na \*quiet\* harbour$/);
    expect(acceptedAcks(submit)).toBe(1);
    expect(left(await quotaText(h.discord, user))).toBe(before.quota - 1);

    // The card and the history show the member's prompt (escaped), as for /imagine with style_ref.
    const card = textOf(resultPost(submit)?.payload);
    expect(card).toContain('a \\*quiet\\* harbour');
    expect(card).not.toContain('Image 1 is');
    const history = h.discord.slash('history', [{ name: 'list', type: 1, options: [] }], { user });
    await history.waitFor((x) => x.edits.some((e) => e.status === 200));
    const listed = (history.edits.at(-1)?.payload as { embeds?: { description?: string }[] } | undefined)?.embeds?.[0]?.description;
    expect(listed).toMatch(/^\*\*a \\\*quiet\\\* harbour\*\*\n/);
  });

  it('parks only the first image, and sends only one as the style reference even under an Edit image id', async () => {
    const user = h.discord.fixtures.members[5]!;
    const [first, second] = [await png('#aa00aa'), await png('#00aaaa')];
    const target = h.discord.createUserMessage(general(), user, 'two', [
      h.discord.uploadAttachment(first, 'first.png', 'image/png'),
      h.discord.uploadAttachment(second, 'second.png', 'image/png'),
    ]);
    // A client that moves the id to the other family: what Use as style parked is one image, not the message's two.
    const style = await h.discord.messageCommand('Use as style', target, { user }).waitForAck();
    const asEdit = h.discord.modalSubmit(style.body!.data!.custom_id!.replace(/^menustyle:/, 'menuedit:'), { prompt: 'night' }, { user });
    await asEdit.waitFor(settled);
    expect(lastRequest().images).toEqual([first]);
    // And what Edit image parked (both) goes as one style reference under a Use as style id.
    const edit = await h.discord.messageCommand('Edit image', target, { user }).waitForAck();
    const asStyle = h.discord.modalSubmit(edit.body!.data!.custom_id!.replace(/^menuedit:/, 'menustyle:'), { prompt: 'day' }, { user });
    await asStyle.waitFor(settled);
    expect(lastRequest().images).toEqual([first]);
    expect(lastRequest().prompt).toMatch(/^Image 1 is the style reference[^\n]*\nday$/);
  });

  it('refuses a message without images at once: no modal, no download, no gateway call, no charge', async () => {
    const user = h.discord.fixtures.members[2]!;
    const target = h.discord.createUserMessage(general(), user, 'words only', [h.discord.uploadAttachment(Buffer.from('x'), 'a.txt', 'text/plain')]);
    const before = { quota: await quotaText(h.discord, user), requests: h.gateway.imageRequests().length, fetched: h.discord.cdnFetches().length };
    const handle = h.discord.messageCommand('Use as style', target, { user });
    await handle.waitFor(settled);
    expect(handle.acks.map((a) => a.type)).toEqual([4]);
    expect(ephemeralError(handle)).toContain('no PNG, JPEG or WebP images');
    expect(h.discord.cdnFetches().length).toBe(before.fetched);
    expect(h.gateway.imageRequests().length).toBe(before.requests);
    expect(await quotaText(h.discord, user)).toBe(before.quota);
  });

  it("applies /imagine's gates: a member without quota is refused before the image is fetched or anything sent", async () => {
    const { admin, members } = h.discord.fixtures;
    const blocked = members[4]!;
    await blockMember(h.discord, admin, blocked);
    const target = h.discord.createUserMessage(general(), blocked, '', [h.discord.uploadAttachment(await png('#888888'), 'grey.png', 'image/png')]);
    const before = { requests: h.gateway.imageRequests().length, fetched: h.discord.cdnFetches().length };
    const { submit } = await useAsStyle(target, blocked, 'a hill');
    expect(ephemeralError(submit)).toContain("isn't enabled for you on this server");
    expect(h.discord.cdnFetches().length).toBe(before.fetched);
    expect(h.gateway.imageRequests().length).toBe(before.requests);
  });

  it('refunds when the gateway fails', async () => {
    const user = h.discord.fixtures.members[3]!;
    const style = await png('#00ff00');
    const target = h.discord.createUserMessage(general(), user, '', [h.discord.uploadAttachment(style, 'green.png', 'image/png')]);
    const before = { quota: await quotaText(h.discord, user), requests: h.gateway.imageRequests().length };
    h.gateway.enqueue({ type: 'error', preset: 'server_error', lang: 'en' });
    const { modal, submit } = await useAsStyle(target, user, 'a meadow');
    expect(JSON.stringify(modal.body)).toContain("The message's image gives the style.");
    expect(h.gateway.imageRequests().length).toBe(before.requests + 1);
    expect(lastRequest().images).toEqual([style]);
    expect(ephemeralError(submit)).toContain('You were not charged');
    expect(await quotaText(h.discord, user)).toBe(before.quota);
  });

  it('sent nothing the platforms would reject', () => {
    expect(h.discord.specViolations).toEqual([]);
    expect(h.gateway.specViolations).toEqual([]);
  });
});
