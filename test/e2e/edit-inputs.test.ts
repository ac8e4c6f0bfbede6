/**
 * Edit image takes a message's images from wherever Discord puts them: a forwarded message's snapshot, embeds
 * (image and thumbnail) and another bot's Components V2 media gallery. The gateway gets exactly those bytes; an
 * image on a host outside DISCORD_CDN_HOSTS is never fetched, and a message with nothing else costs nothing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ComponentType, EmbedType } from 'discord-api-types/v10';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatedMessage, UserFixture } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { ephemeralError, resultPost, quotaText, settled } from './support.js';

async function png(color: string): Promise<Buffer> {
  return sharp({ create: { width: 48, height: 48, channels: 3, background: color } })
    .png()
    .toBuffer();
}

describe('Edit image on forwarded messages, embeds and galleries', () => {
  let h: Harness;
  /** A host that is not Discord's: it serves a real PNG to anyone who asks, and counts who did. */
  let elsewhere: Server;
  let elsewhereUrl: string;
  const elsewhereRequests: string[] = [];

  beforeAll(async () => {
    h = await startHarness();
    const bytes = await png('#ff00ff');
    elsewhere = createServer((req, res) => {
      elsewhereRequests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': bytes.length }).end(bytes);
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => elsewhere.close(resolve));
    await (h as Harness | undefined)?.close();
  });

  const channel = () => h.discord.fixtures.guild.channels.general.id;

  /** Runs Edit image on `target` as `user`: the modal, then the prompt; returns the modal's text and the submit. */
  async function editImage(target: EmulatedMessage, user: UserFixture, prompt: string) {
    const modal = await h.discord.messageCommand('Edit image', target, { user }).waitForAck();
    expect(modal.type).toBe(9);
    const submit = h.discord.modalSubmit(modal.body!.data!.custom_id!, { prompt }, { user });
    await submit.waitFor((x) => resultPost(x) !== undefined);
    const sent = h.gateway.imageRequests().at(-1)!.form!;
    return { note: JSON.stringify(modal.body), images: sent.files.filter((f) => f.field === 'image[]').map((f) => f.bytes), prompt: sent.fields['prompt'] };
  }

  it("edits the images of a forwarded message: its snapshot's attachment and embed", async () => {
    const [attached, embedded] = [await png('#112233'), await png('#445566')];
    const { members, users } = h.discord.fixtures;
    const linked = h.discord.uploadAttachment(embedded, 'linked.png', 'image/png');
    const original = h.discord.createUserMessage(channel(), users.member2, 'look at these', [h.discord.uploadAttachment(attached, 'photo.png', 'image/png')], {
      embeds: [{ type: EmbedType.Image, url: linked.url, thumbnail: { url: linked.url, proxy_url: linked.url, width: 48, height: 48 } }],
    });
    const forward = h.discord.forwardMessage(original, channel(), users.member3);
    expect(forward.attachments).toEqual([]);

    const result = await editImage(forward, members[0]!, 'as a watercolour');
    expect(result.note).toContain('2 images');
    expect(result.images).toEqual([attached, embedded]);
    expect(result.prompt).toBe('as a watercolour');
  });

  it("edits an embed's image and thumbnail, fetching each once", async () => {
    const [big, small] = [await png('#778899'), await png('#aabbcc')];
    const [a, b] = [h.discord.uploadAttachment(big, 'big.png', 'image/png'), h.discord.uploadAttachment(small, 'small.png', 'image/png')];
    const target = h.discord.createUserMessage(channel(), h.discord.fixtures.users.member2, 'an article', [], {
      embeds: [{ title: 'News', image: { url: a.url }, thumbnail: { url: b.url } }, { image: { url: a.url } }],
    });
    const fetched = h.discord.cdnFetches().length;

    const result = await editImage(target, h.discord.fixtures.members[1]!, 'brighter');
    expect(result.images).toEqual([big, small]);
    expect(h.discord.cdnFetches().length - fetched).toBe(2);
  });

  it("edits another bot's media gallery inside a container, ignoring an image from elsewhere and saying so", async () => {
    const [one, two] = [await png('#010203'), await png('#040506')];
    const items = [h.discord.uploadAttachment(one, 'one.png', 'image/png'), h.discord.uploadAttachment(two, 'two.webp', 'image/png')];
    const target = h.discord.createUserMessage(channel(), h.discord.fixtures.users.vip, '', [], {
      components: [
        { type: ComponentType.TextDisplay, content: 'Your renders' },
        {
          type: ComponentType.Container,
          components: [
            {
              type: ComponentType.MediaGallery,
              items: [...items.map((item) => ({ media: { url: item.url } })), { media: { url: `${elsewhereUrl}/three.png` } }],
            },
          ],
        },
      ],
    });

    const result = await editImage(target, h.discord.fixtures.members[2]!, 'merge them');
    expect(result.note).toContain('2 images; 1 not on Discord ignored');
    expect(result.images).toEqual([one, two]);
    expect(elsewhereRequests).toEqual([]);
  });

  it('refuses a message whose only image is on another host, before any fetch, and charges nothing', async () => {
    const user = h.discord.fixtures.members[3]!;
    const before = await quotaText(h.discord, user);
    const original = h.discord.createUserMessage(channel(), h.discord.fixtures.users.member2, 'from the web', [], {
      embeds: [{ image: { url: `${elsewhereUrl}/cat.png`, proxy_url: `${elsewhereUrl}/proxy/cat.png` } }],
    });
    const target = h.discord.forwardMessage(original, channel(), h.discord.fixtures.users.member3);
    const [fetched, gatewayCalls] = [h.discord.cdnFetches().length, h.gateway.imageRequests().length];

    const handle = h.discord.messageCommand('Edit image', target, { user });
    await handle.waitFor(settled);
    expect(ephemeralError(handle)).toContain("aren't hosted on Discord");
    expect(elsewhereRequests).toEqual([]);
    expect(h.discord.cdnFetches().length).toBe(fetched);
    expect(h.gateway.imageRequests().length).toBe(gatewayCalls);
    expect(await quotaText(h.discord, user)).toBe(before);
  });

  it('sent nothing the platforms would reject', () => {
    expect(h.discord.specViolations).toEqual([]);
    expect(h.gateway.specViolations).toEqual([]);
  });
});
