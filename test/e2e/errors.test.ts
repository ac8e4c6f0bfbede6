import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorPreset } from '../emulators/gateway/index.js';
import { startHarness, type Harness } from './harness.js';
import { acceptedAcks, ephemeralError, resultPost, settled } from './support.js';

describe('errors members can act on, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '100' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  let n = 0;
  async function imagine(options: { name: string; type: number; value: string | number }[], ctx: { channelId?: string } = {}) {
    const user = h.discord.fixtures.members[n++ % h.discord.fixtures.members.length]!;
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: `error case ${n}` }, ...options], { user, ...ctx });
    await handle.waitFor(settled);
    expect(acceptedAcks(handle)).toBe(1);
    return handle;
  }

  it.each<[ErrorPreset, 'en' | 'zh', string]>([
    ['moderation', 'en', 'safety system declined'],
    ['sensitive_words', 'zh', 'safety system declined'],
    ['unknown_model', 'zh', "That model isn't available. Try one of: `gpt-image-2`"],
    ['bad_size', 'en', "didn't accept `size`"],
    ['rate_limited_empty', 'en', 'busy right now'],
    ['saturated', 'zh', 'busy right now'],
    ['gateway_timeout_504', 'en', 'took too long to make. Try a smaller size, a lower quality or fewer images'],
    ['cloudflare_524', 'en', 'cut this generation off because it ran too long. A lower quality or a smaller size finishes sooner'],
    ['invalid_key', 'zh', "isn't available right now"],
    ['balance', 'zh', "isn't available right now"],
    ['server_error', 'en', 'ran into a problem'],
  ])('explains %s (%s) privately with a reference id and charges nothing', async (preset, lang, text) => {
    h.gateway.enqueue({ type: 'error', preset, lang });
    const handle = await imagine([]);
    const message = ephemeralError(handle);
    expect(message).toContain(text);
    expect(message).toMatch(/For admins: `[a-z]+\.[a-zA-Z]+` · ref `[0-9A-Z]{6}`/);
    expect(message).not.toMatch(/request id|sk-|HTTP|status/i);
    expect(resultPost(handle)).toBeUndefined();
  });

  it('logs gateway account problems for the operator at error level', async () => {
    h.gateway.enqueue({ type: 'error', preset: 'balance', lang: 'en' });
    await imagine([]);
    const lines = h.logs.map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(lines.some((l) => l.level >= 50 && l.msg.includes('gateway account'))).toBe(true);
  });

  it('tells a member when the quota does not cover the request, with the reset time', async () => {
    const user = h.discord.fixtures.users.owner;
    const handle = h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: 'too many' },
        { name: 'count', type: 4, value: 10 },
      ],
      { user },
    );
    await handle.waitFor(settled);
    const before = h.gateway.imageRequests().length;
    const many = Array.from({ length: 10 }, () =>
      h.discord.slash(
        'imagine',
        [
          { name: 'prompt', type: 3, value: 'more' },
          { name: 'count', type: 4, value: 10 },
        ],
        { user },
      ),
    );
    await Promise.all(many.map((x) => x.waitFor(settled)));
    const refused = many.map(ephemeralError).filter((m): m is string => m !== undefined);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]).toMatch(/resets <t:\d+:R>/);
    expect(h.gateway.imageRequests().length - before).toBe(many.length - refused.length);
  });

  it.each([
    ['an invalid custom size', [{ name: 'size', type: 3, value: '1000x1000' }], 'size'],
    ['an extreme aspect ratio', [{ name: 'size', type: 3, value: '3840x256' }], 'size'],
    [
      'compression with PNG',
      [
        { name: 'compression', type: 4, value: 50 },
        { name: 'format', type: 3, value: 'png' },
      ],
      'compression',
    ],
    [
      'a transparent JPEG',
      [
        { name: 'background', type: 3, value: 'transparent' },
        { name: 'format', type: 3, value: 'jpeg' },
      ],
      'transparent',
    ],
    ['moderation:low outside age-restricted channels', [{ name: 'moderation', type: 3, value: 'low' }], 'age-restricted'],
  ])('refuses %s before any gateway call', async (_name, options, text) => {
    const before = h.gateway.imageRequests().length;
    const handle = await imagine(options);
    expect(ephemeralError(handle)).toContain(text);
    expect(h.gateway.imageRequests().length).toBe(before);
  });

  it('accepts moderation:low in an age-restricted channel', async () => {
    const handle = await imagine([{ name: 'moderation', type: 3, value: 'low' }], { channelId: h.discord.fixtures.guild.channels.nsfw.id });
    expect(resultPost(handle)).toBeDefined();
    expect(h.gateway.imageRequests().at(-1)!.json).toMatchObject({ moderation: 'low' });
  });

  it('refuses an attachment that is not really an image, without calling the gateway', async () => {
    const before = h.gateway.imageRequests().length;
    const fake = h.discord.uploadAttachment(Buffer.from('GIF89a not a png at all'), 'sneaky.png', 'image/png');
    const handle = h.discord.slash(
      'edit',
      [
        { name: 'prompt', type: 3, value: 'x' },
        { name: 'image', type: 11, value: fake.id },
      ],
      { user: h.discord.fixtures.member, resolvedAttachments: [fake] },
    );
    await handle.waitFor(settled);
    expect(ephemeralError(handle)).toMatch(/png, jpeg, webp/i);
    const text = h.discord.uploadAttachment(Buffer.from('hello'), 'notes.txt', 'text/plain');
    const second = h.discord.slash(
      'edit',
      [
        { name: 'prompt', type: 3, value: 'x' },
        { name: 'image', type: 11, value: text.id },
      ],
      { user: h.discord.fixtures.member, resolvedAttachments: [text] },
    );
    await second.waitFor(settled);
    expect(second.acks[0]?.type).toBe(4);
    expect(h.gateway.imageRequests().length).toBe(before);
  });

  it('refuses a mask of the wrong size before any gateway call', async () => {
    const before = h.gateway.imageRequests().length;
    const image = h.discord.uploadAttachment(
      await sharp({ create: { width: 64, height: 64, channels: 3, background: '#fff' } })
        .png()
        .toBuffer(),
      'a.png',
      'image/png',
    );
    const mask = h.discord.uploadAttachment(
      await sharp({ create: { width: 32, height: 32, channels: 4, background: '#0000' } })
        .png()
        .toBuffer(),
      'm.png',
      'image/png',
    );
    const handle = h.discord.slash(
      'edit',
      [
        { name: 'prompt', type: 3, value: 'x' },
        { name: 'image', type: 11, value: image.id },
        { name: 'mask', type: 11, value: mask.id },
      ],
      { user: h.discord.fixtures.member, resolvedAttachments: [image, mask] },
    );
    await handle.waitFor(settled);
    expect(ephemeralError(handle)).toContain('mask');
    expect(h.gateway.imageRequests().length).toBe(before);
  });

  it('sent nothing the platforms would reject', () => {
    expect(h.discord.specViolations).toEqual([]);
    expect(h.gateway.specViolations).toEqual([]);
  });
});
