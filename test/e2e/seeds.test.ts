/**
 * Seeds only where a model's profile has them (issue 32), end to end: the operator's MODEL_PROFILES_FILE turns seeds
 * on for flux models (which the gateway emulator plays as taking `seed`, refusing it for every OpenAI model). A seed
 * for a flux model reaches the gateway and shows on the card, Re-roll and Vary ask again without it and Remix keeps
 * it; a seed for
 * gpt-image-2 is refused before anything is sent or charged; autocomplete offers seeds for the one model only.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionHandle } from '../emulators/discord/index.js';
import { REALISTIC_MODELS, REALISTIC_SHUTDOWN_DATES } from '../emulators/gateway/index.js';
import { startHarness, type Harness } from './harness.js';
import { customIds, ephemeralError, quotaText, resultPost, settled, textOf } from './support.js';

const prompt = { name: 'prompt', type: 3, value: 'a fox in the snow' };
const option = (name: string, value: string | number) => ({ name, type: typeof value === 'number' ? 4 : 3, value });

describe('seeds, end to end', () => {
  let h: Harness;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'imagine-seeds-'));
    const profiles = join(dir, 'profiles.json');
    writeFileSync(profiles, JSON.stringify({ 'flux-*': { seeds: true } }));
    h = await startHarness({
      gateway: { models: [...REALISTIC_MODELS, 'flux-schnell'], shutdownDates: REALISTIC_SHUTDOWN_DATES },
      env: { QUOTA_DEFAULT_LIMIT: '50', MODEL_PROFILES_FILE: profiles },
    });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const imagine = async (...options: { name: string; type: number; value: string | number }[]): Promise<InteractionHandle> => {
    const handle = h.discord.slash('imagine', [prompt, ...options], { user: h.discord.fixtures.member });
    await handle.waitFor(settled);
    return handle;
  };

  it('sends a seed to a model whose profile has seeds, shows it on the card, and re-rolls without it', async () => {
    const before = h.gateway.imageRequests().length;
    const handle = await imagine(option('model', 'flux-schnell'), option('seed', 1234567));
    const sent = h.gateway.imageRequests().slice(before);
    expect(sent.map((r) => r.json)).toEqual([{ model: 'flux-schnell', prompt: 'a fox in the snow', seed: 1234567 }]);
    const post = resultPost(handle);
    expect(post?.files).toHaveLength(1);
    expect(textOf(post?.payload)).toContain('flux-schnell · 1024×1024 · auto quality · seed 1234567');

    // The same seed would make the same image again: Re-roll asks for another one.
    const message = handle.lastMessage();
    const rerollId = customIds(message).find((id) => id.startsWith('reroll:'));
    const reroll = h.discord.button(message!, rerollId!, { user: h.discord.fixtures.member });
    await reroll.waitFor((x) => resultPost(x) !== undefined);
    expect(h.gateway.imageRequests().at(-1)?.json).toEqual({ model: 'flux-schnell', prompt: 'a fox in the snow' });
    expect(textOf(resultPost(reroll)?.payload)).not.toContain('seed');
  });

  it('sends the seed of an /edit as a field of its multipart body', async () => {
    const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#345' } })
      .png()
      .toBuffer();
    const attachment = h.discord.uploadAttachment(image, 'photo.png', 'image/png');
    const handle = h.discord.slash('edit', [prompt, { name: 'image', type: 11, value: attachment.id }, option('model', 'flux-schnell'), option('seed', 5)], {
      user: h.discord.fixtures.member,
      resolvedAttachments: [attachment],
    });
    await handle.waitFor((x) => resultPost(x) !== undefined);
    const sent = h.gateway.imageRequests().at(-1)!;
    expect(sent.path).toBe('/v1/images/edits');
    expect(sent.form!.fields).toMatchObject({ model: 'flux-schnell', seed: '5' });
    expect(textOf(resultPost(handle)?.payload)).toContain('seed 5');
  });

  it('Vary edits the image without the seed; Remix keeps it, so only the words change', async () => {
    const handle = await imagine(option('model', 'flux-schnell'), option('seed', 99));
    const card = handle.lastMessage()!;
    const vary = h.discord.button(
      card,
      customIds(card).find((id) => id.endsWith(':vs'))!,
      { user: h.discord.fixtures.member },
    );
    await vary.waitFor((x) => resultPost(x) !== undefined);
    const edit = h.gateway.imageRequests().at(-1)!;
    expect(edit.path).toBe('/v1/images/edits');
    expect(edit.form!.fields).not.toHaveProperty('seed');

    const modal = await h.discord
      .button(
        card,
        customIds(card).find((id) => id.endsWith(':rm'))!,
        { user: h.discord.fixtures.member },
      )
      .waitForAck();
    const remix = h.discord.modalSubmit(
      modal.body!.data!.custom_id!,
      { prompt: 'a fox in the rain', size: '', quality: '', mode: ['new'] },
      { user: h.discord.fixtures.member, message: card },
    );
    await remix.waitFor((x) => resultPost(x) !== undefined);
    expect(h.gateway.imageRequests().at(-1)?.json).toEqual({ model: 'flux-schnell', prompt: 'a fox in the rain', seed: 99 });
  });

  it('refuses a seed for a model without seeds, with a clear message, before anything is sent or charged', async () => {
    const quota = await quotaText(h.discord, h.discord.fixtures.member);
    const before = h.gateway.imageRequests().length;
    const handle = await imagine(option('model', 'gpt-image-2'), option('seed', 42));
    expect(ephemeralError(handle)).toContain("That seed doesn't work: gpt-image-2 takes no seed. Allowed: leave it out.");
    expect(h.gateway.imageRequests().length).toBe(before);
    expect(await quotaText(h.discord, h.discord.fixtures.member)).toBe(quota);
  });

  it('autocompletes seeds for the model with seeds and nothing for one without', async () => {
    const choices = async (options: { name: string; type: number; value: string | number; focused?: boolean }[]) => {
      const handle = h.discord.autocomplete('imagine', [{ ...prompt, value: '' }, ...options], { user: h.discord.fixtures.member });
      return (await handle.waitForAck()).body!.data!.choices!;
    };
    const seeded = await choices([option('model', 'flux-schnell'), { name: 'seed', type: 4, value: '', focused: true }]);
    expect(seeded).toHaveLength(1);
    expect(seeded[0]?.value).toEqual(expect.any(Number));
    expect(seeded[0]?.name).toBe(`🎲 ${String(seeded[0]?.value)} (a new random seed)`);
    const typed = await choices([option('model', 'flux-schnell'), { name: 'seed', type: 4, value: '77', focused: true }]);
    expect(typed[0]).toEqual({ name: '77', value: 77 });
    expect(await choices([option('model', 'gpt-image-2'), { name: 'seed', type: 4, value: '', focused: true }])).toEqual([]);
    // No model chosen: the default in use, gpt-image-2, has no seeds.
    expect(await choices([{ name: 'seed', type: 4, value: '', focused: true }])).toEqual([]);
  });

  it('sent nothing the platforms would reject', () => {
    expect(h.discord.specViolations).toEqual([]);
    expect(h.gateway.specViolations).toEqual([]);
  });
});
