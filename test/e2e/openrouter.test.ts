/**
 * OpenRouter as the gateway, end to end (issue 27): the real bot in the OpenRouter dialect against the emulator's
 * OpenRouter. Its image catalogue feeds /models, autocomplete and validation; /imagine and /edit go to `POST
 * /images` (an edit's attachments as input_references) and are delivered; the cost OpenRouter reports is what the
 * job costs; a request the model's descriptors refuse never leaves the bot, and a failed generation costs nothing.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionHandle, SlashOption } from '../emulators/discord/index.js';
import { openRouterFailure } from '../emulators/gateway/index.js';
import { startHarness, type Harness } from './harness.js';
import { ephemeralError, resultPost, lastText, quotaText, settled, textOf } from './support.js';

const GEMINI = 'google/gemini-3.1-flash-image';
const option = (name: string, value: string | number): SlashOption => ({ name, type: typeof value === 'number' ? 4 : 3, value });

describe('OpenRouter as the gateway, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ gateway: { dialect: 'openrouter' }, env: { GATEWAY_DIALECT: 'openrouter', QUOTA_DEFAULT_LIMIT: '20', LOG_LEVEL: 'debug' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  /** Settled, and done with by the bot (a job's totals are written after its reply). */
  const done = async (handle: InteractionHandle): Promise<InteractionHandle> => {
    await handle.waitFor(settled);
    await h.waitForLog((e) => e['interactionId'] === handle.id && (e.msg === 'interaction handled' || e.msg === 'user-facing error'));
    return handle;
  };
  const imagine = (options: SlashOption[], user = h.discord.fixtures.member) =>
    done(h.discord.slash('imagine', [option('prompt', 'a harbour at dawn'), ...options], { user }));
  const choices = async (options: SlashOption[]) => {
    const handle = h.discord.autocomplete('imagine', [option('prompt', ''), ...options], { user: h.discord.fixtures.member });
    return (await handle.waitForAck()).body!.data!.choices!.map((c) => c.value);
  };

  it("lists OpenRouter's image models in /models and the model autocomplete, from its image catalogue", async () => {
    const models = h.discord.slash('models', [], { user: h.discord.fixtures.member });
    await models.waitFor((x) => x.edits.some((e) => e.status === 200));
    const listed = lastText(models);
    for (const id of [GEMINI, 'openai/gpt-image-2', 'bytedance-seed/seedream-4.5', 'black-forest-labs/flux.2-pro']) expect(listed).toContain(`\`${id}\``);
    expect(listed).not.toContain('gpt-4o-mini');
    expect(await choices([{ ...option('model', 'gemini'), focused: true }])).toEqual([GEMINI]);
    expect(h.gateway.requests.some((r) => r.path.startsWith('/api/v1/images/models'))).toBe(true);
  });

  it("autocompletes each model's own values from its descriptors", async () => {
    const focused = (name: string, value: string) => ({ ...option(name, value), focused: true });
    expect(await choices([option('model', GEMINI), focused('size', '1360')])).toEqual(['1360x768']);
    expect(await choices([option('model', GEMINI), focused('quality', '')])).toEqual(['auto']);
    expect(await choices([option('model', 'openai/gpt-image-2'), focused('quality', '')])).toEqual(['auto', 'low', 'medium', 'high']);
    expect(await choices([option('model', 'black-forest-labs/flux.2-pro'), focused('size', '')])).toEqual(['auto', '1024x1024', '1536x1024', '1024x1536']);
  });

  it('delivers /imagine through POST /images, the size as its tier and ratio, and records the cost OpenRouter reported', async () => {
    const before = h.gateway.charges().length;
    const handle = await imagine([option('model', GEMINI), option('size', '1360x768')]);
    const final = resultPost(handle)!;
    expect(final.files).toHaveLength(1);
    expect(await sharp(final.files[0]!.bytes).metadata()).toMatchObject({ width: 1360, height: 768 });
    expect(textOf(final.payload)).toContain(`${GEMINI} · 1360×768 · auto quality`);
    expect(h.gateway.imageRequests().at(-1)?.json).toEqual({ model: GEMINI, prompt: 'a harbour at dawn', resolution: '1K', aspect_ratio: '16:9' });
    expect(h.gateway.charges().slice(before)).toEqual([0.039]);
    const usage = h.discord.slash('usage', [], { user: h.discord.fixtures.admin });
    await usage.waitFor((x) => x.edits.some((e) => e.status === 200));
    expect(lastText(usage)).toContain('Images: 1 from 1 request · cost: $0.0390 reported');
  });

  it('delivers /edit with the attachments as input_references, priced as reported', async () => {
    const user = h.discord.fixtures.users.member2;
    const first = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#aa3300' } })
      .png()
      .toBuffer();
    const second = await sharp({ create: { width: 48, height: 64, channels: 3, background: '#0033aa' } })
      .webp()
      .toBuffer();
    const a = h.discord.uploadAttachment(first, 'first.png', 'image/png');
    const b = h.discord.uploadAttachment(second, 'second.webp', 'image/webp');
    const options = [
      option('prompt', 'both at night'),
      option('model', 'bytedance-seed/seedream-4.5'),
      { name: 'image', type: 11, value: a.id },
      { name: 'image2', type: 11, value: b.id },
    ];
    const handle = await done(h.discord.slash('edit', options, { user, resolvedAttachments: [a, b] }));
    expect(resultPost(handle)?.files).toHaveLength(1);
    const sent = h.gateway.imageRequests().at(-1)!;
    expect(sent.path).toBe('/api/v1/images');
    const references = (sent.json?.['input_references'] as { image_url: { url: string } }[]).map((r) => r.image_url.url);
    expect(references).toEqual([`data:image/png;base64,${first.toString('base64')}`, `data:image/webp;base64,${second.toString('base64')}`]);
    const usage = h.discord.slash('usage', [{ name: 'user', type: 6, value: user.id }], { user: h.discord.fixtures.admin });
    await usage.waitFor((x) => x.edits.some((e) => e.status === 200));
    expect(lastText(usage)).toContain('Images: 1 from 1 request · cost: $0.0400');
  });

  it("refuses what the model's descriptors do not allow before anything is sent or charged: Gemini makes one image", async () => {
    const user = h.discord.fixtures.users.member3;
    const quota = await quotaText(h.discord, user);
    const before = h.gateway.imageRequests().length;
    const many = await imagine([option('model', GEMINI), option('count', 2)], user);
    expect(ephemeralError(many)).toContain(`${GEMINI} makes at most 1 image per request. Allowed: 1.`);
    const quality = await imagine([option('model', GEMINI), option('quality', 'high')], user);
    expect(ephemeralError(quality)).toContain('Allowed: leave it out.');
    const size = await imagine([option('model', GEMINI), option('size', '1536x1024')], user);
    expect(ephemeralError(size)).toContain(`${GEMINI} takes only its listed sizes.`);
    expect(h.gateway.imageRequests()).toHaveLength(before);
    expect(await quotaText(h.discord, user)).toBe(quota);
  });

  it('tells the member a failed generation (502, not billed by OpenRouter) failed, and charges nothing', async () => {
    const user = h.discord.fixtures.members[4]!;
    const quota = await quotaText(h.discord, user);
    const charges = h.gateway.charges().length;
    h.gateway.enqueue(openRouterFailure());
    const failed = await imagine([option('model', GEMINI)], user);
    expect(ephemeralError(failed)).toContain('You were not charged');
    expect(h.gateway.charges()).toHaveLength(charges);
    expect(await quotaText(h.discord, user)).toBe(quota);
  });

  it("holds a money limit with OpenRouter's prices, then charges the cost it reported", async () => {
    const user = h.discord.fixtures.members[5]!;
    const money = h.discord.slash(
      'quota',
      [
        {
          name: 'money',
          type: 1,
          options: [
            { name: 'usd', type: 10, value: 0.3 },
            { name: 'user', type: 6, value: user.id },
          ],
        },
      ],
      {
        user: h.discord.fixtures.admin,
      },
    );
    await money.waitFor((x) => x.edits.some((e) => e.status === 200));
    // Estimated from the endpoints' prices: six images at $0.053 do not fit in $0.30.
    const before = h.gateway.imageRequests().length;
    const dear = await imagine([option('model', 'openai/gpt-image-2'), option('count', 6)], user);
    expect(ephemeralError(dear)).toContain('This request would cost about $0.32, and only $0.30 of your $0.30 spending limit is left.');
    expect(h.gateway.imageRequests()).toHaveLength(before);
    // Gemini at its dearest image (4K, $0.156) fits; it is charged the $0.039 OpenRouter reported.
    const one = await imagine([option('model', GEMINI)], user);
    expect(resultPost(one)?.files).toHaveLength(1);
    expect(await quotaText(h.discord, user)).toContain('**Spending: $0.04 of $0.30**');
  });

  it('sent nothing Discord would reject', () => {
    expect(h.discord.specViolations).toEqual([]);
  });
});
