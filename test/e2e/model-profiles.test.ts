/**
 * Capability profiles end to end (issue 16), against a gateway listing today's models (the emulator enforces each
 * model's real rules): requests carry what the model takes and nothing else, what it refuses is refused before
 * anything is reserved, sent or fetched, naming what it takes, and autocomplete offers only its values.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionHandle } from '../emulators/discord/index.js';
import { REALISTIC_MODELS, REALISTIC_SHUTDOWN_DATES } from '../emulators/gateway/index.js';
import { startHarness, type Harness } from './harness.js';
import { ephemeralError, resultPost, quotaText, settled } from './support.js';

const prompt = { name: 'prompt', type: 3, value: 'a lighthouse at dusk' };
const option = (name: string, value: string | number) => ({ name, type: typeof value === 'number' ? 4 : 3, value });

describe('model profiles, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ gateway: { models: REALISTIC_MODELS, shutdownDates: REALISTIC_SHUTDOWN_DATES }, env: { QUOTA_DEFAULT_LIMIT: '50' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const imagine = async (...options: { name: string; type: number; value: string | number }[]): Promise<InteractionHandle> => {
    const handle = h.discord.slash('imagine', [prompt, ...options], { user: h.discord.fixtures.member });
    await handle.waitFor(settled);
    return handle;
  };

  it('asks dall-e-3 for base64 with its own size, quality and style, one image and no stream, and delivers it', async () => {
    const before = h.gateway.imageRequests().length;
    const handle = await imagine(option('model', 'dall-e-3'), option('size', '1792x1024'), option('quality', 'hd'), option('style', 'natural'));
    expect(resultPost(handle)?.files).toHaveLength(1);
    const sent = h.gateway.imageRequests().slice(before);
    expect(sent.map((r) => r.json)).toEqual([
      { model: 'dall-e-3', prompt: 'a lighthouse at dusk', size: '1792x1024', quality: 'hd', style: 'natural', response_format: 'b64_json' },
    ]);
    expect(await sharp(resultPost(handle)!.files[0]!.bytes).metadata()).toMatchObject({ width: 1792, height: 1024 });
  });

  it.each([
    ['count:2', [option('count', 2)], 'dall-e-3 makes at most 1 image per request. Allowed: 1.'],
    ['quality:high', [option('quality', 'high')], "dall-e-3 doesn't offer high. Allowed: standard, hd."],
    ['size:1536x1024', [option('size', '1536x1024')], 'dall-e-3 takes only its listed sizes. Allowed: 1024x1024, 1792x1024, 1024x1792.'],
    ['format:webp', [option('format', 'webp')], "dall-e-3 doesn't make WEBP. Allowed: png."],
  ])('refuses dall-e-3 with %s before anything is sent or charged, naming what it takes', async (_name, options, reason) => {
    const before = h.gateway.imageRequests().length;
    const handle = await imagine(option('model', 'dall-e-3'), ...options);
    expect(ephemeralError(handle)).toContain(reason);
    expect(h.gateway.imageRequests().length).toBe(before);
  });

  it('refuses quality:xhigh for gpt-image-2 naming its qualities, and sends it for gpt-image-2.5', async () => {
    const quota = await quotaText(h.discord, h.discord.fixtures.member);
    const before = h.gateway.imageRequests().length;
    const refused = await imagine(option('model', 'gpt-image-2'), option('quality', 'xhigh'));
    expect(ephemeralError(refused)).toContain("That quality doesn't work: gpt-image-2 doesn't offer xhigh. Allowed: auto, low, medium, high.");
    expect(h.gateway.imageRequests().length).toBe(before);
    expect(await quotaText(h.discord, h.discord.fixtures.member)).toBe(quota);

    const accepted = await imagine(option('model', 'gpt-image-2.5'), option('quality', 'xhigh'));
    expect(resultPost(accepted)?.files).toHaveLength(1);
    expect(h.gateway.imageRequests().at(-1)?.json).toMatchObject({ model: 'gpt-image-2.5', quality: 'xhigh' });
  });

  it("delivers gpt-image-2.6's SVG as a PNG rendering with the original beside it, charged as one image", async () => {
    const quota = await quotaText(h.discord, h.discord.fixtures.member);
    const left = Number(/(\d+) of 50 images left/.exec(quota)?.[1]);
    const handle = await imagine(option('model', 'gpt-image-2.6-flare'), option('format', 'svg'), option('complexity', 'high'));
    const files = resultPost(handle)?.files ?? [];
    expect(files.map((f) => f.filename)).toEqual(['a-lighthouse-at-dusk-1.png', 'a-lighthouse-at-dusk-1.svg']);
    expect((await sharp(files[0]!.bytes).metadata()).format).toBe('png');
    expect(files[1]!.bytes.toString('utf8')).toContain('<svg');
    expect(h.gateway.imageRequests().at(-1)?.json).toMatchObject({ output_format: 'svg', complexity: 'high' });
    expect(h.gateway.imageRequests().at(-1)?.json).not.toHaveProperty('stream');
    expect(await quotaText(h.discord, h.discord.fixtures.member)).toContain(`${left - 1} of 50 images left`);
  });

  it("delivers gpt-image-2.6's GIF as it is", async () => {
    const handle = await imagine(option('model', 'gpt-image-2.6-sunburst'), option('format', 'gif'));
    const files = resultPost(handle)?.files ?? [];
    expect(files.map((f) => f.filename)).toEqual(['a-lighthouse-at-dusk-1.gif']);
    expect(files[0]!.bytes.subarray(0, 6).toString('latin1')).toMatch(/^GIF8[79]a$/);
  });

  it('delivers url items that come with a file_id', async () => {
    h.gateway.enqueue({ type: 'success', fileIds: true });
    const handle = await imagine(option('model', 'gpt-image-2'));
    expect(resultPost(handle)?.files).toHaveLength(1);
  });

  it("refuses an edit with dall-e-3, which can't edit, before fetching the image", async () => {
    const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#345' } })
      .png()
      .toBuffer();
    const attachment = h.discord.uploadAttachment(image, 'photo.png', 'image/png');
    const fetched = h.discord.cdnFetches().length;
    const before = h.gateway.imageRequests().length;
    const handle = h.discord.slash('edit', [prompt, { name: 'image', type: 11, value: attachment.id }, option('model', 'dall-e-3')], {
      user: h.discord.fixtures.member,
      resolvedAttachments: [attachment],
    });
    await handle.waitFor(settled);
    expect(ephemeralError(handle)).toContain("dall-e-3 can't edit images");
    expect(h.discord.cdnFetches().length).toBe(fetched);
    expect(h.gateway.imageRequests().length).toBe(before);
  });

  it('autocompletes only what the chosen model takes', async () => {
    const choices = async (options: { name: string; type: number; value: string; focused?: boolean }[]) => {
      const handle = h.discord.autocomplete('imagine', [{ ...prompt, value: '' }, ...options], { user: h.discord.fixtures.member });
      return (await handle.waitForAck()).body!.data!.choices!.map((c) => c.value);
    };
    expect(await choices([option('model', 'dall-e-3') as never, { name: 'quality', type: 3, value: '', focused: true }])).toEqual(['standard', 'hd']);
    expect(await choices([option('model', 'gpt-image-2.5') as never, { name: 'quality', type: 3, value: 'x', focused: true }])).toEqual(['xhigh']);
    expect(await choices([option('model', 'gpt-image-2.6-flare') as never, { name: 'format', type: 3, value: '', focused: true }])).toEqual([
      'png',
      'jpeg',
      'webp',
      'gif',
      'svg',
    ]);
    expect(await choices([option('model', 'gpt-image-1.5') as never, { name: 'size', type: 3, value: '2048x1152', focused: true }])).toEqual([]);
    // No model chosen: the default in use, gpt-image-2 (which takes custom sizes).
    expect(await choices([{ name: 'size', type: 3, value: '2048x1152', focused: true }])).toEqual(['2048x1152']);
  });

  it('sent nothing the platforms would reject', () => {
    expect(h.discord.specViolations).toEqual([]);
    expect(h.gateway.specViolations).toEqual([]);
  });
});
