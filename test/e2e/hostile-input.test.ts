/**
 * Requests that will be refused cost no download: a blocked member's Edit image on a message full of attachments,
 * and an attachment Discord declares larger than ATTACHMENT_MAX_BYTES, fetch nothing from the CDN. An embedded
 * image, whose size Discord does not declare, is read no further than ATTACHMENT_MAX_BYTES.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { ephemeralError, quotaText, settled, blockMember } from './support.js';

const MAX_ATTACHMENT_BYTES = 20_000;

async function png(size: number): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
}

describe('refused requests download nothing', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { ATTACHMENT_MAX_BYTES: String(MAX_ATTACHMENT_BYTES) } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it("fetches none of a blocked member's sixteen references", async () => {
    const { admin, members, guild } = h.discord.fixtures;
    const blocked = members[0]!;
    await blockMember(h.discord, admin, blocked);
    const image = await png(64);
    const attachments = Array.from({ length: 16 }, (_, i) => h.discord.uploadAttachment(image, `ref-${i}.png`, 'image/png'));
    const target = h.discord.createUserMessage(guild.channels.general.id, blocked, 'all of these', attachments);
    const fetched = h.discord.cdnFetches().length;

    const menu = h.discord.messageCommand('Edit image', target, { user: blocked });
    const modal = await menu.waitForAck();
    const submit = h.discord.modalSubmit(modal.body!.data!.custom_id!, { prompt: 'make them all night' }, { user: blocked });
    await submit.waitFor(settled);

    expect(ephemeralError(submit)).toContain("isn't enabled for you on this server");
    expect(h.discord.cdnFetches().length).toBe(fetched);
    expect(h.gateway.imageRequests()).toHaveLength(0);
  });

  it('fetches nothing for an attachment declared larger than ATTACHMENT_MAX_BYTES, and says what is allowed', async () => {
    const big = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#000000' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(MAX_ATTACHMENT_BYTES);
    const attachment = h.discord.uploadAttachment(big, 'big.png', 'image/png');
    const fetched = h.discord.cdnFetches().length;

    const handle = h.discord.slash(
      'edit',
      [
        { name: 'prompt', type: 3, value: 'brighter' },
        { name: 'image', type: 11, value: attachment.id },
      ],
      { user: h.discord.fixtures.member },
    );
    await handle.waitFor(settled);

    expect(ephemeralError(handle)).toContain('an image under 20 KB');
    expect(h.discord.cdnFetches().length).toBe(fetched);
    expect(h.gateway.imageRequests()).toHaveLength(0);
  });

  it('refuses an embedded image (no declared size) larger than ATTACHMENT_MAX_BYTES once the download passes it, and refunds', async () => {
    const big = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#101010' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const user = h.discord.fixtures.members[1]!;
    const before = await quotaText(h.discord, user);
    const linked = h.discord.uploadAttachment(big, 'huge.png', 'image/png');
    const target = h.discord.createUserMessage(h.discord.fixtures.guild.channels.general.id, h.discord.fixtures.member, 'from a bot', [], {
      embeds: [{ image: { url: linked.url } }],
    });

    const modal = await h.discord.messageCommand('Edit image', target, { user }).waitForAck();
    const submit = h.discord.modalSubmit(modal.body!.data!.custom_id!, { prompt: 'smaller' }, { user });
    await submit.waitFor(settled);

    expect(ephemeralError(submit)).toContain('it is larger than 20 KB');
    expect(h.gateway.imageRequests()).toHaveLength(0);
    expect(await quotaText(h.discord, user)).toBe(before);
  });
});
