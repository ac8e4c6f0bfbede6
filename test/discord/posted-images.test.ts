/**
 * /show's downloads (issue 28): a posted result's files are admitted to the memory budget before any is downloaded,
 * each read no further than Discord declares it (or its share of the room), and their room is held until the caller
 * has posted them; a failed download gives it back.
 */
import type { APIMessage, REST } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { DiscordPostedImages } from '../../src/discord/posted-images.js';
import { AttachmentDownloadError } from '../../src/core/attachment-download.js';
import { silentLogger } from '../fakes/memory-logger.js';

const attachment = (id: string, size: number) => ({ id, url: `https://cdn.discordapp.com/attachments/1/${id}/${id}.png`, filename: `${id}.png`, size });
const message = (attachments: ReturnType<typeof attachment>[]) => ({ id: 'm1', channel_id: 'c1', attachments, components: [] }) as unknown as APIMessage;
/** discord.js's REST, answering the message GET only. */
const restWith = (answer: APIMessage) => ({ get: () => Promise.resolve(answer) }) as unknown as REST;

function setup(answer: APIMessage, options: { room?: number; failOn?: string } = {}) {
  const events: string[] = [];
  const images = new DiscordPostedImages({
    rest: restWith(answer),
    download: (url, maxBytes) => {
      events.push(`download ${url.split('/').at(-1)} ≤ ${maxBytes}`);
      if (url.endsWith(`${options.failOn}.png`)) return Promise.reject(new AttachmentDownloadError('http_status', 'gone'));
      return Promise.resolve(Buffer.alloc(10));
    },
    memory: {
      take: (bytes) => {
        events.push(`take ${bytes}`);
        return Promise.resolve(() => events.push('release'));
      },
      maxBytes: options.room ?? 1_000_000,
    },
    maxFileBytes: 500_000,
    logger: silentLogger,
  });
  return { images, events };
}

describe('DiscordPostedImages', () => {
  it('takes room for the declared sizes before downloading, reads each no further, and holds it until released', async () => {
    const { images, events } = setup(message([attachment('a', 3_000), attachment('b', 7_000)]));
    const fetched = await images.fetch({ channelId: 'c1', messageId: 'm1' });
    expect(events).toEqual(['take 10000', 'download a.png ≤ 3000', 'download b.png ≤ 7000']);
    fetched?.release();
    expect(events.at(-1)).toBe('release');
  });

  it('cuts each file to an equal share of the room when together they would pass it, and gives the room back when a download fails', async () => {
    const { images, events } = setup(message([attachment('a', 400_000), attachment('b', 400_000)]), { room: 600_000, failOn: 'b' });
    expect(await images.fetch({ channelId: 'c1', messageId: 'm1' })).toBeUndefined();
    expect(events).toEqual(['take 600000', 'download a.png ≤ 300000', 'download b.png ≤ 300000', 'release']);
  });
});
