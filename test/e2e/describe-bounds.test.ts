/**
 * Describe bounded, and previews that fit, end to end (issue 28). A member flooding /describe with a large image gets
 * one describe at a time (the others refused with a message, then a cooldown), and its bytes stay in the describes'
 * own part of the memory budget: another member's edit is delivered while that describe's vision call is still held
 * open at the gateway. A streamed preview larger than the interaction's upload limit is made smaller (never posted
 * as it came, which Discord refuses with 413), and the result is delivered.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionHandle } from '../emulators/discord/index.js';
import { ImageFactory } from '../emulators/gateway/images.js';
import { sseFrames } from '../emulators/gateway/sse.js';
import { startHarness, type Harness } from './harness.js';
import { customIds, ephemeralError, lastText, resultPost, settled } from './support.js';

const MIB = 1024 * 1024;

describe('describe bounded, end to end', () => {
  let h: Harness;
  let large: Buffer;
  let small: Buffer;
  beforeAll(async () => {
    // About 10 MB as stored (uncompressed): what the old describe reserved for it (five times that, capped) filled the
    // whole references' region of this budget (48 MiB), so an edit waited for the describe to end.
    large = await sharp({ create: { width: 1900, height: 1800, channels: 3, background: '#3a6f8f' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    small = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#aa3311' } })
      .png()
      .toBuffer();
    h = await startHarness({
      env: {
        QUOTA_DEFAULT_LIMIT: '50',
        VISION_MODEL: 'gpt-4o-mini',
        MEMORY_BUDGET_BYTES: String(64 * MIB),
        GATEWAY_MAX_RESPONSE_BYTES: String(16 * MIB),
        DESCRIBE_MEMORY_BYTES: String(40 * MIB),
        DESCRIBE_COOLDOWN_SECONDS: '600',
      },
    });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const describeLarge = (user = h.discord.fixtures.member): InteractionHandle => {
    const attachment = h.discord.uploadAttachment(large, 'large.png', 'image/png');
    return h.discord.slash('describe', [{ name: 'image', type: 11, value: attachment.id }], { user });
  };
  const answered = (x: InteractionHandle) => x.edits.some((e) => e.status === 200 && customIds(e.payload).length > 0);
  const refusalOf = (x: InteractionHandle) => ephemeralError(x) ?? lastText(x);

  it("lets five describes by one member hold up no other member's edit: one runs, four are refused, and the edit is delivered while its vision call is open", async () => {
    const held = h.gateway.holdChat();
    const first = describeLarge();
    await held.arrived;
    // The image went downscaled: a JPEG of at most 2048 px, not the 10 MB PNG.
    const url = JSON.stringify(h.gateway.chatRequests()[0]?.json?.['messages']);
    expect(url).toContain('data:image/jpeg;base64,');
    expect(url.length).toBeLessThan(4 * MIB);

    const more = [1, 2, 3, 4].map(() => describeLarge());
    for (const refused of more) {
      await refused.waitFor(settled);
      expect(refusalOf(refused)).toContain('You already have an image being described');
    }
    expect(h.gateway.chatRequests()).toHaveLength(1);

    const image = h.discord.uploadAttachment(small, 'ref.png', 'image/png');
    const edit = h.discord.slash(
      'edit',
      [
        { name: 'prompt', type: 3, value: 'make it blue' },
        { name: 'image', type: 11, value: image.id },
      ],
      { user: h.discord.fixtures.members[1]! },
    );
    await edit.waitFor((x) => resultPost(x) !== undefined);
    // Delivered while the describe still waits for its vision model.
    expect(answered(first) || settled(first)).toBe(false);

    held.release();
    await first.waitFor(answered);
    expect(customIds(first.lastMessage())).toHaveLength(4);
  });

  it('refuses a describe within the cooldown after the last one started, saying when the member may again', async () => {
    const member = h.discord.fixtures.members[3]!;
    const first = describeLarge(member);
    await first.waitFor(answered);
    const asked = h.gateway.chatRequests().length;
    const again = describeLarge(member);
    await again.waitFor(settled);
    expect(refusalOf(again)).toMatch(/You can describe another image <t:\d+:R>/);
    expect(h.gateway.chatRequests()).toHaveLength(asked);
  });

  it('makes a streamed preview larger than the upload limit smaller, never posting it as it came, and delivers the result', async () => {
    const limit = 60_000;
    const factory = new ImageFactory();
    const partial = await factory.partial({ width: 1536, height: 1024, format: 'png', transparent: false, style: 'textured', variant: 0 }, 0);
    expect(partial.length).toBeGreaterThan(limit);
    const common = { created_at: 1, size: '1536x1024', quality: 'auto', background: 'opaque', output_format: 'png' };
    const [partialFrame, completedFrame] = sseFrames(
      [
        { type: 'image_generation.partial_image', b64_json: partial.toString('base64'), partial_image_index: 0, ...common },
        {
          type: 'image_generation.completed',
          b64_json: small.toString('base64'),
          ...common,
          usage: { input_tokens: 10, output_tokens: 100, total_tokens: 110 },
        },
      ],
      'event',
    );
    let previewSeen: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (previewSeen = resolve));
    h.gateway.enqueue({ type: 'raw', status: 200, headers: { 'content-type': 'text/event-stream' }, body: partialFrame, chunks: [completedFrame!], gate });

    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'a preview too large' }], {
      user: h.discord.fixtures.members[2]!,
      attachmentSizeLimit: limit,
    });
    const previews = (x: InteractionHandle) => x.edits.filter((e) => e.files.some((f) => f.filename.startsWith('preview.')));
    await handle.waitFor((x) => previews(x).length > 0);
    previewSeen();
    await handle.waitFor((x) => resultPost(x) !== undefined);

    for (const edit of previews(handle)) {
      expect(edit.status).toBe(200);
      for (const file of edit.files) expect(file.bytes.length).toBeLessThanOrEqual(limit);
    }
    expect(h.discord.requests.filter((r) => r.status === 413 && r.path.includes(handle.token))).toEqual([]);
    expect(resultPost(handle)!.files[0]!.bytes.equals(small)).toBe(true);
  });
});
