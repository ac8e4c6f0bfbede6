/**
 * Hostile images end to end (issue 28), the real bot against the emulators: the two hostile SVGs of the issue end
 * with a message and the bot keeps delivering another member's jobs; an SVG that cannot be drawn within bounds ends
 * the job with a message and costs nothing; a PNG declaring 20000x20000 (from the gateway, or attached to /edit) is
 * refused from its header, never decoded, and costs nothing.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionHandle } from '../emulators/discord/index.js';
import { REALISTIC_MODELS } from '../emulators/gateway/index.js';
import { declaredPng } from '../emulators/gateway/png-bomb.js';
import { startHarness, type Harness } from './harness.js';
import { ephemeralError, quotaText, resultPost, settled, textOf } from './support.js';

const option = (name: string, value: string) => ({ name, type: 3, value });

/** The 336-byte SVG: 4096 square, one feTurbulence numOctaves=10 and one feGaussianBlur stdDeviation=300. */
const TURBULENT =
  '<svg xmlns="http://www.w3.org/2000/svg" width="4096" height="4096"><filter id="f"><feTurbulence baseFrequency="0.05" numOctaves="10"/><feGaussianBlur stdDeviation="300"/></filter><rect width="4096" height="4096" filter="url(#f)"/></svg>';

/** The 65 KB SVG: a data: PNG declaring 20000x20000 (librsvg would allocate its whole surface), and a tracking pixel. */
function embeddingBomb(): string {
  const png = declaredPng(20_000, 20_000).toString('base64');
  const head = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="1024" height="1024"><rect width="1024" height="1024" fill="#38a"/><image xlink:href="data:image/png;base64,${png}" width="1024" height="1024"/><image href="https://tracker.example/pixel.png" width="1" height="1"/>`;
  return `${head}<desc>${'x'.repeat(65_000 - head.length - 20)}</desc></svg>`;
}

/** A raw JSON answer with these image bytes. */
const answerWith = (bytes: Buffer) => ({
  type: 'raw' as const,
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ created: 1, data: [{ b64_json: bytes.toString('base64') }] }),
});

describe('hostile images end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      gateway: { models: REALISTIC_MODELS },
      env: { QUOTA_DEFAULT_LIMIT: '50', MAX_CONCURRENT_JOBS: '4', SVG_RENDER_TIMEOUT_SECONDS: '5' },
    });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const svgJob = (user: (typeof h.discord.fixtures.members)[number]): InteractionHandle =>
    h.discord.slash('imagine', [option('prompt', 'a hostile svg'), option('model', 'gpt-image-2.6-flare'), option('format', 'svg')], { user });

  /** Starts the hostile job, then another member's job once the hostile answer is on its way; both settle. */
  async function besideAnother(hostile: Buffer, user: (typeof h.discord.fixtures.members)[number], other: (typeof h.discord.fixtures.members)[number]) {
    const before = h.gateway.imageRequests().length;
    h.gateway.enqueue(answerWith(hostile));
    const job = svgJob(user);
    await job.waitFor(() => h.gateway.imageRequests().length > before);
    const others = [1, 2].map((i) => h.discord.slash('imagine', [option('prompt', `another member's job ${i}`)], { user: other }));
    await Promise.all([job, ...others].map((x) => x.waitFor(settled)));
    for (const x of others) expect(resultPost(x)?.files).toHaveLength(1);
    return job;
  }

  it('draws the 4096x4096 turbulence SVG at 1024 with its filters toned down, posts the sanitised original, and delivers another member’s jobs', async () => {
    const [user, other] = [h.discord.fixtures.members[0]!, h.discord.fixtures.members[1]!];
    const job = await besideAnother(Buffer.from(TURBULENT), user, other);
    const post = resultPost(job)!;
    expect(textOf(post.payload)).toContain('Some of its filter effects were toned down so it could be drawn safely.');
    const [rendering, original] = post.files;
    expect(await sharp(rendering!.bytes).metadata()).toMatchObject({ format: 'png', width: 1024, height: 1024 });
    expect(original!.filename).toMatch(/\.svg$/);
    expect(original!.bytes.toString()).toContain('numOctaves="4"');
    expect(original!.bytes.toString()).toContain('stdDeviation="100"');
  });

  it('draws the 65 KB SVG without its data: PNG declaring 20000x20000 or its tracking pixel, says so, and delivers another member’s jobs', async () => {
    const [user, other] = [h.discord.fixtures.members[2]!, h.discord.fixtures.members[3]!];
    const bomb = Buffer.from(embeddingBomb());
    expect(bomb.length).toBeGreaterThanOrEqual(64_000);
    const job = await besideAnother(bomb, user, other);
    const post = resultPost(job)!;
    expect(textOf(post.payload)).toContain('Embedded images, scripts and links to other files were removed from this SVG.');
    const [rendering, original] = post.files;
    expect(await sharp(rendering!.bytes).metadata()).toMatchObject({ format: 'png', width: 1024, height: 1024 });
    const text = original!.bytes.toString();
    expect(text).not.toMatch(/data:|<image|tracker\.example/);
    expect(text).toContain('fill="#38a"');
  });

  it("draws an SVG declaring 300000x150000 (past sharp's limit) at 2048 pixels on its long side, charged as one image", async () => {
    const user = h.discord.fixtures.users.member3;
    const quota = await quotaText(h.discord, user);
    const left = Number(/(\d+) of 50 images left/.exec(quota)?.[1]);
    const huge = '<svg xmlns="http://www.w3.org/2000/svg" width="300000" height="150000"><circle cx="150000" cy="75000" r="70000" fill="#c44"/></svg>';
    h.gateway.enqueue(answerWith(Buffer.from(huge)));
    const job = svgJob(user);
    await job.waitFor(settled);
    const [rendering, original] = resultPost(job)!.files;
    expect(await sharp(rendering!.bytes).metadata()).toMatchObject({ format: 'png', width: 2048, height: 1024 });
    expect(original!.bytes.toString()).toContain('width="300000"');
    expect(await quotaText(h.discord, user)).toContain(`${left - 1} of 50 images left`);
  });

  it('ends a job whose SVG cannot be drawn within bounds with a message, and charges nothing', async () => {
    const user = h.discord.fixtures.members[4]!;
    const quota = await quotaText(h.discord, user);
    const crowded = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512">${'<rect width="1" height="1"/>'.repeat(10_001)}</svg>`);
    h.gateway.enqueue(answerWith(crowded));
    const job = svgJob(user);
    await job.waitFor(settled);
    expect(ephemeralError(job)).toContain(
      "The image service made an SVG too complex to show safely (too large, too many elements or filters, or too slow to draw), so I didn't post it. Try a simpler prompt. You were not charged.",
    );
    expect(resultPost(job)).toBeUndefined();
    expect(await quotaText(h.discord, user)).toBe(quota);
  });

  it('refuses a gateway PNG declaring 20000x20000 from its header, saying so, and charges nothing', async () => {
    const user = h.discord.fixtures.members[5]!;
    const quota = await quotaText(h.discord, user);
    h.gateway.enqueue(answerWith(declaredPng(20_000, 20_000)));
    const job = h.discord.slash('imagine', [option('prompt', 'a png bomb'), option('model', 'gpt-image-1.5')], { user });
    await job.waitFor(settled);
    expect(ephemeralError(job)).toContain(
      "The image service sent back an image too large to open safely: it is 20000×20000 pixels, more than the 50 megapixels I can open. I didn't post it, and you were not charged.",
    );
    expect(await quotaText(h.discord, user)).toBe(quota);
  });

  it('refuses an /edit reference declaring 20000x20000 before it reaches the gateway', async () => {
    const user = h.discord.fixtures.users.member;
    const attachment = h.discord.uploadAttachment(declaredPng(20_000, 20_000), 'bomb.png', 'image/png');
    const before = h.gateway.imageRequests().length;
    const job = h.discord.slash(
      'edit',
      [option('prompt', 'make it blue'), { name: 'image', type: 11, value: attachment.id }, option('model', 'gpt-image-1.5')],
      {
        user,
        resolvedAttachments: [attachment],
      },
    );
    await job.waitFor(settled);
    expect(ephemeralError(job)).toContain('it is 20000×20000 pixels, more than the 50 megapixels I can open');
    expect(h.gateway.imageRequests().length).toBe(before);
  });

  it('sent nothing the platforms would reject', () => {
    expect(h.discord.specViolations).toEqual([]);
    expect(h.gateway.specViolations).toEqual([]);
  });
});
