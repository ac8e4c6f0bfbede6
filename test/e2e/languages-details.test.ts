/**
 * A refusal's details in the member's language, end to end (issue 19): a member whose Discord speaks Japanese asks
 * for what the model or the general rules refuse, and reads why and what is allowed in Japanese — nothing English
 * left but the names they typed and the values (model, option, sizes) — before anything is sent or charged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionHandle } from '../emulators/discord/index.js';
import { REALISTIC_MODELS, REALISTIC_SHUTDOWN_DATES } from '../emulators/gateway/index.js';
import { errorRef } from '../../src/errors.js';
import { t } from '../../src/i18n/translate.js';
import { startHarness, type Harness } from './harness.js';
import { ephemeralError, settled } from './support.js';

const prompt = { name: 'prompt', type: 3, value: 'a lighthouse at dusk' };
const option = (name: string, value: string | number) => ({ name, type: typeof value === 'number' ? 4 : 3, value });

/** What is left of a message once its tokens (model, option names, sizes, values, the reference id) are taken out. */
const withoutTokens = (text: string): string =>
  text.replace(/`[^`]*`|dall-e-3|gpt-image-2|\d+x\d+|\b(?:count|size|quality|auto|standard|hd)\b/g, '').replace(/\bID\b/g, '');

describe('a refusal in Japanese, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ gateway: { models: REALISTIC_MODELS, shutdownDates: REALISTIC_SHUTDOWN_DATES }, env: { QUOTA_DEFAULT_LIMIT: '50' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const imagine = async (...options: { name: string; type: number; value: string | number }[]): Promise<InteractionHandle> => {
    const handle = h.discord.slash('imagine', [prompt, ...options], { user: h.discord.fixtures.member, locale: 'ja' });
    await handle.waitFor(settled);
    return handle;
  };

  it('answers a count the model does not take fully in Japanese, naming why and what it takes, and sends nothing', async () => {
    const before = h.gateway.imageRequests().length;
    const handle = await imagine(option('model', 'dall-e-3'), option('count', 2));
    const message = ephemeralError(handle) ?? '';
    expect(message).toBe(
      `枚数 の値は使えません：dall-e-3 が 1 回のリクエストで作れる画像は 1 枚までです。使える値：1。\n${t('ja', 'error.reference', { code: 'input.invalid', ref: errorRef(handle.id) })}`,
    );
    expect(withoutTokens(message)).not.toMatch(/[A-Za-z]{2,}/);
    expect(h.gateway.imageRequests().length).toBe(before);
  });

  it('answers a size the general rules refuse fully in Japanese: what is wrong with it, and every size allowed', async () => {
    const before = h.gateway.imageRequests().length;
    const handle = await imagine(option('model', 'gpt-image-2'), option('size', '1000x1000'));
    const message = ephemeralError(handle) ?? '';
    expect(message).toContain(
      'サイズ の値は使えません：幅と高さはどちらも 16 の倍数にしてください。使える値：auto、1024x1024、1536x1024、1024x1536、または 幅x高さ',
    );
    expect(withoutTokens(message)).not.toMatch(/[A-Za-z]{2,}/);
    expect(h.gateway.imageRequests().length).toBe(before);
  });
});
