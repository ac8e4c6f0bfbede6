import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { acceptedAcks, ephemeralError, resultPost, settled, texts, textOf } from './support.js';

describe('delivery limits and fairness end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      gateway: { imageStyle: 'textured' },
      env: { MAX_CONCURRENT_JOBS: '1', MAX_RUNNING_PER_MEMBER: '1', MAX_QUEUED_PER_MEMBER: '3', QUOTA_DEFAULT_LIMIT: '100' },
    });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it('re-encodes an image larger than the attachment limit and says so', async () => {
    const limit = 400_000;
    const handle = h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: 'detailed texture' },
        { name: 'size', type: 3, value: '1536x1024' },
      ],
      { user: h.discord.fixtures.member, attachmentSizeLimit: limit },
    );
    await handle.waitFor((x) => resultPost(x) !== undefined);
    const final = resultPost(handle)!;
    expect(final.files).toHaveLength(1);
    expect(final.files[0]!.bytes.length).toBeLessThanOrEqual(limit);
    const meta = await sharp(final.files[0]!.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 1536, 1024]);
    expect(textOf(final.payload)).toContain("re-encoded as WEBP to fit Discord's upload limit");
  });

  it('sends the same complete upload again when Discord rate-limits the delivery once', async () => {
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'rate limited' }], { user: h.discord.fixtures.users.owner });
    h.discord.failNext(
      { method: 'PATCH', path: new RegExp(`^/webhooks/\\d+/${handle.token}/messages/(@|%40)original$`) },
      { status: 429, retryAfter: 0.01, body: { message: 'You are being rate limited.', retry_after: 0.01, global: false } },
    );
    await handle.waitFor((x) => resultPost(x) !== undefined);
    expect(h.discord.requests.filter((r) => r.status === 429 && r.path.includes(handle.token))).toHaveLength(1);
    const final = resultPost(handle)!;
    expect(final.files).toHaveLength(1);
    const meta = await sharp(final.files[0]!.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1024, 1024]);
  });

  it('drops an image that cannot fit even re-encoded, and does not charge for it', async () => {
    const user = h.discord.fixtures.users.member2;
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'impossible fit' }], { user, attachmentSizeLimit: 1_000 });
    await handle.waitFor(settled);
    expect(ephemeralError(handle)).toContain('not charged');
    const show = h.discord.slash('quota', [{ name: 'show', type: 1 }], { user });
    await show.waitFor((x) => x.edits.some((e) => e.status === 200));
    expect(texts(show).at(-1)).toContain('100 of 100 images left');
  });

  it('posts more than 10 images as two cards under the reply', async () => {
    const small = (
      await sharp({ create: { width: 16, height: 16, channels: 3, background: '#abcdef' } })
        .png()
        .toBuffer()
    ).toString('base64');
    const body = JSON.stringify({ created: 1, data: Array.from({ length: 12 }, () => ({ b64_json: small })) });
    h.gateway.enqueue({ type: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body });
    const handle = h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: 'a dozen' },
        { name: 'count', type: 4, value: 10 },
      ],
      { user: h.discord.fixtures.users.member3 },
    );
    const cards = () => handle.followUps.filter((f) => f.status === 200 && f.files.length > 0);
    await handle.waitFor(() => cards().length === 2);
    expect(cards().map((c) => c.files.length)).toEqual([10, 2]);
    expect(textOf(cards()[0]!.payload)).toContain('(1/2)');
    expect(textOf(cards()[1]!.payload)).toContain('(2/2)');
    // Public (not ephemeral), cards both.
    expect(cards().map((c) => c.payload!.flags)).toEqual([32768, 32768]);
  });

  it('serves members fairly: one member’s queue does not starve another, and shows queue positions', async () => {
    const [a, b] = [h.discord.fixtures.members[3]!, h.discord.fixtures.members[4]!];
    const held = h.gateway.hold();
    const first = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'A1' }], { user: a });
    await held.arrived;
    const rest = ['A2', 'A3', 'A4'].map((p) => h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: p }], { user: a }));
    await Promise.all(rest.map((x) => x.waitFor((y) => texts(y).some((t) => t.includes('Queued')))));
    const refused = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'A5' }], { user: a });
    await refused.waitFor(settled);
    expect(ephemeralError(refused)).toContain('already have 3 images waiting');
    const bJob = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'B1' }], { user: b });
    await bJob.waitFor((y) => texts(y).some((t) => t.includes('Queued')));
    expect(texts(bJob).find((t) => t.includes('Queued'))).toContain('you are next');
    held.release();
    await Promise.all([first, ...rest, bJob].map((x) => x.waitFor((y) => resultPost(y) !== undefined)));
    const order = h.gateway
      .imageRequests()
      .map((r) => r.json?.['prompt'])
      .filter((p) => /^[AB]\d$/.test(String(p)));
    expect(order).toEqual(['A1', 'B1', 'A2', 'A3', 'A4']);
    for (const x of [first, ...rest, bJob, refused]) expect(acceptedAcks(x)).toBe(1);
  });

  it('sent nothing the platforms would reject', () => {
    expect(h.discord.specViolations).toEqual([]);
    expect(h.gateway.specViolations).toEqual([]);
  });
});
