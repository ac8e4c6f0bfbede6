/**
 * Ratios and resolutions instead of pixel sizes (issue 32), end to end against a gateway listing today's models (the
 * emulator enforces each model's sizes): `ratio:16:9 resolution:2K` reaches the gateway as a size the model takes,
 * within 1 % of 16:9, and the card shows the ratio; a size with a ratio is refused before anything is sent;
 * autocomplete offers only the ratios the model makes.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionHandle } from '../emulators/discord/index.js';
import { REALISTIC_MODELS, REALISTIC_SHUTDOWN_DATES } from '../emulators/gateway/index.js';
import { startHarness, type Harness } from './harness.js';
import { ephemeralError, quotaText, resultPost, settled, textOf } from './support.js';

const prompt = { name: 'prompt', type: 3, value: 'a harbour at dawn' };
const option = (name: string, value: string) => ({ name, type: 3, value });

describe('ratios and resolutions, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ gateway: { models: REALISTIC_MODELS, shutdownDates: REALISTIC_SHUTDOWN_DATES }, env: { QUOTA_DEFAULT_LIMIT: '50' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const imagine = async (...options: { name: string; type: number; value: string }[]): Promise<InteractionHandle> => {
    const handle = h.discord.slash('imagine', [prompt, ...options], { user: h.discord.fixtures.member });
    await handle.waitFor(settled);
    return handle;
  };

  it('sends ratio:16:9 resolution:2K as a size gpt-image-2 takes, within 1 % of 16:9, and shows the ratio on the card', async () => {
    const before = h.gateway.imageRequests().length;
    const handle = await imagine(option('model', 'gpt-image-2'), option('ratio', '16:9'), option('resolution', '2K'));
    const sent = h.gateway.imageRequests().slice(before);
    expect(sent).toHaveLength(1);
    const size = String(sent[0]?.json?.['size']);
    const [width, height] = size.split('x').map(Number) as [number, number];
    expect(Math.abs(width / height / (16 / 9) - 1)).toBeLessThanOrEqual(0.01);
    expect(width % 16).toBe(0);
    expect(height % 16).toBe(0);
    expect(Math.max(width, height)).toBe(2048);
    const post = resultPost(handle);
    expect(await sharp(post!.files[0]!.bytes).metadata()).toMatchObject({ width, height });
    expect(textOf(post?.payload)).toContain(`16:9 · ${width}×${height}`);
  });

  it('gives a model with listed sizes the listed size of the ratio, and refuses a ratio it cannot make, naming those it can', async () => {
    const before = h.gateway.imageRequests().length;
    await imagine(option('model', 'dall-e-3'), option('ratio', '9:16'));
    expect(
      h.gateway
        .imageRequests()
        .slice(before)
        .map((r) => r.json?.['size']),
    ).toEqual(['1024x1792']);
    const quota = await quotaText(h.discord, h.discord.fixtures.member);
    const refused = await imagine(option('model', 'dall-e-3'), option('ratio', '21:9'));
    expect(ephemeralError(refused)).toContain("dall-e-3 can't make 21:9. Allowed: 1:1, 16:9, 9:16.");
    expect(h.gateway.imageRequests().length).toBe(before + 1);
    expect(await quotaText(h.discord, h.discord.fixtures.member)).toBe(quota);
  });

  it('refuses a size given with a ratio, with a clear message, before anything is sent or charged', async () => {
    const before = h.gateway.imageRequests().length;
    const quota = await quotaText(h.discord, h.discord.fixtures.member);
    const handle = await imagine(option('size', '1024x1024'), option('ratio', '16:9'));
    expect(ephemeralError(handle)).toContain('either a size, or a ratio and resolution, not both');
    expect(h.gateway.imageRequests().length).toBe(before);
    expect(await quotaText(h.discord, h.discord.fixtures.member)).toBe(quota);
  });

  it('autocompletes only the ratios and resolutions the chosen model makes, marking experimental ones', async () => {
    const choices = async (options: { name: string; type: number; value: string; focused?: boolean }[]) => {
      const handle = h.discord.autocomplete('imagine', [{ ...prompt, value: '' }, ...options], { user: h.discord.fixtures.member });
      return (await handle.waitForAck()).body!.data!.choices!.map((c) => `${c.value}=${c.name}`);
    };
    expect(await choices([option('model', 'dall-e-3') as never, { name: 'ratio', type: 3, value: '', focused: true }])).toEqual([
      '1:1=1:1',
      '16:9=16:9',
      '9:16=9:16',
    ]);
    expect(await choices([option('model', 'gpt-image-1') as never, { name: 'resolution', type: 3, value: '', focused: true }])).toEqual(['1K=1K']);
    expect(
      await choices([option('model', 'gpt-image-2') as never, option('ratio', '16:9') as never, { name: 'resolution', type: 3, value: '', focused: true }]),
    ).toEqual(['1K=1K', '2K=2K', '4K=4K (experimental)']);
  });
});
