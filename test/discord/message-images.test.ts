/**
 * Finding a message's images wherever Discord puts them. Messages are built from API payloads, shaped as discord.js
 * exposes them (attachments by id, embeds' data, components' JSON); the e2e tests feed real discord.js messages.
 */
import { ComponentType, type APIAttachment, type APIEmbed, type APIMessageTopLevelComponent } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { findMessageImages, type ImageCarrier, type SourceMessage } from '../../src/discord/message-images.js';

const CDN = 'https://cdn.discordapp.com';
const onDiscord = (url: string): boolean => ['cdn.discordapp.com', 'media.discordapp.net'].includes(new URL(url).hostname);

function attachment(id: string, filename: string, size: number, contentType = 'image/png'): APIAttachment {
  const url = `${CDN}/attachments/1/${id}/${filename}?ex=1&hm=abc`;
  return { id, filename, size, url, proxy_url: url.replace(CDN, 'https://media.discordapp.net'), content_type: contentType, width: 64, height: 64 };
}

function carrier(payload: { attachments?: APIAttachment[]; embeds?: APIEmbed[]; components?: APIMessageTopLevelComponent[] }): ImageCarrier {
  return {
    attachments: new Map(
      (payload.attachments ?? []).map((a) => [
        a.id,
        {
          id: a.id,
          url: a.url,
          proxyURL: a.proxy_url,
          name: a.filename,
          size: a.size,
          contentType: a.content_type ?? null,
          width: a.width ?? null,
          height: a.height ?? null,
        },
      ]),
    ),
    embeds: (payload.embeds ?? []).map((data) => ({ data })),
    components: (payload.components ?? []).map((json) => ({ toJSON: () => json })),
  };
}

function gallery(...urls: string[]): APIMessageTopLevelComponent {
  return { type: ComponentType.MediaGallery, items: urls.map((url) => ({ media: { url } })) };
}

describe('findMessageImages', () => {
  it('keeps image attachments in order with their declared sizes, and counts the other files', () => {
    const message = carrier({
      attachments: [attachment('1', 'a.png', 100), attachment('2', 'notes.txt', 5, 'text/plain'), attachment('3', 'b.webp', 200, 'image/webp')],
    });
    const found = findMessageImages(message, onDiscord);
    expect(found.images.map((i) => [i.filename, i.size])).toEqual([
      ['a.png', 100],
      ['b.webp', 200],
    ]);
    expect(found.images[0]!.url).toBe(`${CDN}/attachments/1/1/a.png?ex=1&hm=abc`);
    expect(found).toMatchObject({ notImages: 1, elsewhere: 0 });
  });

  it("takes an embed's image and thumbnail with no size, named after their URL", () => {
    const message = carrier({
      embeds: [{ image: { url: `${CDN}/attachments/1/9/big%20cat.png`, width: 800, height: 600 }, thumbnail: { url: `${CDN}/attachments/1/8/small.jpg` } }],
    });
    const found = findMessageImages(message, onDiscord);
    expect(found.images).toEqual([
      { url: `${CDN}/attachments/1/9/big%20cat.png`, filename: 'big cat.png', contentType: null, width: 800, height: 600 },
      { url: `${CDN}/attachments/1/8/small.jpg`, filename: 'small.jpg', contentType: null, width: null, height: null },
    ]);
    expect(found.images[0]).not.toHaveProperty('size');
  });

  it("uses Discord's proxy of another site's image when only the proxy's host is allowed, and counts it elsewhere otherwise", () => {
    const proxied = { url: 'https://example.com/fox.png', proxy_url: 'https://media.discordapp.net/external/x/https/example.com/fox.png' };
    const message = carrier({
      embeds: [{ image: proxied }, { thumbnail: { url: 'https://example.org/owl.png', proxy_url: 'https://images-ext-1.discordapp.net/x/owl.png' } }],
    });
    const found = findMessageImages(message, onDiscord);
    expect(found.images.map((i) => i.url)).toEqual([proxied.proxy_url]);
    expect(found).toMatchObject({ notImages: 0, elsewhere: 1 });
  });

  it('takes the media of galleries at the top level and inside containers, with their declared type', () => {
    const message = carrier({
      components: [
        gallery(`${CDN}/attachments/1/20/one.png`),
        { type: ComponentType.TextDisplay, content: 'some text' },
        {
          type: ComponentType.Container,
          components: [
            { type: ComponentType.MediaGallery, items: [{ media: { url: `${CDN}/attachments/1/21/two`, content_type: 'image/jpeg', width: 32, height: 16 } }] },
          ],
        },
      ],
    });
    const found = findMessageImages(message, onDiscord);
    expect(found.images.map((i) => [i.filename, i.contentType, i.width])).toEqual([
      ['one.png', null, null],
      ['two', 'image/jpeg', 32],
    ]);
  });

  it("adds the forwarded message's images after the message's own", () => {
    const forwarded = carrier({ attachments: [attachment('30', 'fwd.png', 300)], embeds: [{ image: { url: `${CDN}/attachments/1/31/fwd-embed.webp` } }] });
    const message: SourceMessage = { ...carrier({ components: [gallery(`${CDN}/attachments/1/32/own.png`)] }), messageSnapshots: new Map([['40', forwarded]]) };
    expect(findMessageImages(message, onDiscord).images.map((i) => i.filename)).toEqual(['own.png', 'fwd.png', 'fwd-embed.webp']);
  });

  it('counts an image shown twice once: a gallery item of an attachment, or one URL signed twice', () => {
    const shown = attachment('50', 'shown.png', 500);
    const message = carrier({
      attachments: [shown],
      components: [{ type: ComponentType.MediaGallery, items: [{ media: { url: `${shown.url}&again=1`, attachment_id: '50' } }] }],
      embeds: [{ image: { url: `${CDN}/attachments/1/51/e.png?hm=1` }, thumbnail: { url: `${CDN}/attachments/1/51/e.png?hm=2` } }],
    });
    const found = findMessageImages(message, onDiscord);
    expect(found.images.map((i) => i.filename)).toEqual(['shown.png', 'e.png']);
    expect(found.images[0]!.size).toBe(500);
  });

  it('counts media that are not PNG, JPEG or WebP as other files, wherever they are', () => {
    const message = carrier({
      embeds: [{ image: { url: `${CDN}/attachments/1/60/dance.gif` } }, { thumbnail: { url: 'https://example.com/page.html' } }],
      components: [{ type: ComponentType.MediaGallery, items: [{ media: { url: `${CDN}/attachments/1/61/clip`, content_type: 'video/mp4' } }] }],
    });
    expect(findMessageImages(message, onDiscord)).toEqual({ images: [], notImages: 3, elsewhere: 0 });
  });
});
