/**
 * The result is uploaded while the gateway's answer is still arriving: the card's post (a follow-up under the reply)
 * starts with the first image bytes and ends only once the whole answer checked out. Cut off mid-answer, it posts nothing and charges
 * nothing. Shown with holds inside the gateway's answer and at the head of Discord's request, not with timings.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionHandle } from '../emulators/discord/index.js';
import { imagineOptions, startHarness, type Harness } from './harness.js';
import { ephemeralError, resultPost, quotaText, settled, textOf } from './support.js';

/** The follow-up that carries the card (a new message under the reply: edits cannot carry it on real Discord, #7529). */
const cardPostOf = (handle: InteractionHandle) => ({ method: 'POST', path: new RegExp(`^/webhooks/\\d+/${handle.token}$`) });

describe('posting while the answer arrives, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    // No progress edit may come first, however slowly a loaded machine moves the answer: the first edit is the upload.
    h = await startHarness({ gateway: { imageStyle: 'textured' }, env: { QUOTA_DEFAULT_LIMIT: '8', PROGRESS_INTERVAL_MS: '600000' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it('starts the upload of the reply before the answer has fully arrived, and completes it after', async () => {
    const held = h.gateway.holdBody(0.6);
    const handle = h.discord.slash('imagine', imagineOptions('four at once', [{ name: 'count', type: 4, value: 4 }]), {
      user: h.discord.fixtures.users.member,
    });
    const started = h.discord.nextStart(cardPostOf(handle));
    await held.written;
    // With 60 % of the answer sent and the rest held back, Discord already has the head of the post: a streamed body.
    const head = await started;
    expect(head.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(head.headers['transfer-encoding']).toBe('chunked');
    expect(resultPost(handle)).toBeUndefined();

    held.release();
    await handle.waitFor((x) => resultPost(x) !== undefined);
    const final = resultPost(handle)!;
    expect(final.files).toHaveLength(4);
    for (const file of final.files) {
      expect(file.contentType).toBe('image/png');
      const meta = await sharp(file.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 1024, 1024]);
    }
    expect(final.files.map((f) => f.filename)).toEqual(['four-at-once-1.png', 'four-at-once-2.png', 'four-at-once-3.png', 'four-at-once-4.png']);
    expect(textOf(final.payload)).toContain('four at once');
    // The card, the U1–U4 row and Re-roll, Edit and Delete.
    expect(final.payload!.components).toHaveLength(3);
  });

  it('posts nothing and charges nothing when the answer is cut off after the upload started', async () => {
    const user = h.discord.fixtures.users.member2;
    const held = h.gateway.holdBody(0.5);
    const handle = h.discord.slash('imagine', imagineOptions('cut short', [{ name: 'count', type: 4, value: 2 }]), { user });
    const started = h.discord.nextStart(cardPostOf(handle));
    await held.written;
    await started;
    held.cut();

    await handle.waitFor(settled);
    expect(ephemeralError(handle)).toContain('not charged');
    expect(resultPost(handle)).toBeUndefined();
    // The started post never completed, so Discord recorded nothing carrying files.
    expect([...handle.edits, ...handle.followUps].filter((e) => e.files.length > 0)).toEqual([]);
    expect(await quotaText(h.discord, user)).toContain('8 of 8 images left');
  });
});

describe('with STREAM_DELIVERIES=false', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { STREAM_DELIVERIES: 'false' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it('uploads the result in one piece, of declared length, after the whole answer', async () => {
    const held = h.gateway.holdBody(0.6);
    const handle = h.discord.slash('imagine', imagineOptions('in one piece', [{ name: 'count', type: 4, value: 2 }]), {
      user: h.discord.fixtures.users.member,
    });
    const started = h.discord.nextStart(cardPostOf(handle));
    await held.written;
    held.release();
    const head = await started;
    expect(head.headers['transfer-encoding']).toBeUndefined();
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
    await handle.waitFor((x) => resultPost(x) !== undefined);
    expect(resultPost(handle)!.files).toHaveLength(2);
  });
});
