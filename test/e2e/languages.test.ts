import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { InteractionHandle } from '../emulators/discord/index.js';
import { localizedCommandName } from '../../src/i18n/command-localizations.js';
import { errorRef } from '../../src/errors.js';
import { t } from '../../src/i18n/translate.js';
import { imagineOptions, startHarness, type Harness } from './harness.js';
import { ephemeralError, texts } from './support.js';

/** The delivered card: the post under the reply that carries the images. */
const delivery = (handle: InteractionHandle) => [...handle.edits, ...handle.followUps].find((e) => e.status === 200 && e.files.length > 0);
const delivered = (handle: InteractionHandle) =>
  delivery(handle) !== undefined || handle.followUps.some((f) => f.status === 200 && ((f.payload?.flags ?? 0) & 64) !== 0);
const labelsOf = (payload: unknown): string[] => JSON.stringify(payload).match(/"label":"[^"]*"/g) ?? [];

describe('the registered commands', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it('carry their localizations, and the emulator found nothing in them against the spec', () => {
    const imagine = h.discord.registeredCommands().find((c) => (c as { name?: string }).name === 'imagine') as
      { name_localizations?: Record<string, string>; options?: { name: string; description_localizations?: Record<string, string> }[] } | undefined;
    expect(imagine?.name_localizations).toMatchObject({ 'zh-CN': '生成图片', ja: '画像生成' });
    expect(imagine?.options?.find((o) => o.name === 'prompt')?.description_localizations?.['ja']).toBe('画像の説明：被写体、スタイル、構図、光');
    expect(h.discord.specViolations).toEqual([]);
  });

  it('tell the audit channel in the server’s preferred language, whatever the admin’s own', async () => {
    const { nsfw: audit } = h.discord.fixtures.guild.channels;
    const handle = h.discord.slash('settings', [{ name: 'audit', type: 1, options: [{ name: 'channel', type: 7, value: audit.id }] }], {
      user: h.discord.fixtures.admin,
      locale: 'en-US',
      guildLocale: 'ja',
    });
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200) || x.acks.some((a) => a.type === 4));
    await vi.waitFor(() =>
      expect([...h.discord.messages.values()].filter((m) => m.channel_id === audit.id).map((m) => m.content)).toEqual([
        `⚙️ <@${h.discord.fixtures.admin.id}> が設定（\`/settings audit\`）を変更しました\nauditChannelId: \`未設定\` → \`"${audit.id}"\``,
      ]),
    );
  });
});

describe.each([
  ['zh-CN', { footer: '生成 · ', buttons: ['"label":"重新生成"', '"label":"删除"'], quota: '你的图片额度暂时用完了', failure: '图片服务遇到了问题' }],
  [
    'ja',
    {
      footer: 'のために生成 · ',
      buttons: ['"label":"再生成"', '"label":"削除"'],
      quota: '今のところ画像の枠を使い切りました',
      failure: '画像サービスで問題が発生しました',
    },
  ],
])('a member whose Discord speaks %s', (locale, expected) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '3' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it('gets the /imagine progress, result card and buttons in that language', async () => {
    const handle = h.discord.slash('imagine', imagineOptions('a red fox in snow'), { user: h.discord.fixtures.member, locale });
    await handle.waitFor(delivered);
    const card = delivery(handle);
    expect(texts(handle).join('\n')).toContain(expected.footer);
    expect(texts(handle).join('\n')).not.toMatch(/Imagined for|Generating…|Queued/);
    expect(labelsOf(card?.payload)).toEqual(expect.arrayContaining(expected.buttons));
    expect(h.discord.specViolations).toEqual([]);
  });

  it('is refused by the quota in that language', async () => {
    const handle = h.discord.slash('imagine', imagineOptions('too many', [{ name: 'count', type: 4, value: 4 }]), {
      user: h.discord.fixtures.users.member2,
      locale,
    });
    await handle.waitFor((x) => ephemeralError(x) !== undefined);
    const message = ephemeralError(handle) ?? '';
    expect(message).toContain(expected.quota);
    expect(message).toContain(t(locale, 'error.reference', { code: 'quota.exceeded', ref: errorRef(handle.id) }));
    expect(message).not.toContain("You've used");
  });

  it('reads a gateway failure in that language', async () => {
    h.gateway.enqueue({ type: 'error', preset: 'server_error', lang: 'en' });
    const handle = h.discord.slash('imagine', imagineOptions('a broken gateway'), { user: h.discord.fixtures.users.member3, locale });
    await handle.waitFor((x) => ephemeralError(x) !== undefined);
    expect(ephemeralError(handle)).toContain(expected.failure);
    expect(ephemeralError(handle)).toContain(t(locale, 'error.gateway.failure'));
  });

  it('names a refused option as its Discord shows it (the option’s localization)', async () => {
    const handle = h.discord.slash(
      'imagine',
      imagineOptions('a lighthouse', [
        { name: 'format', type: 3, value: 'png' },
        { name: 'compression', type: 4, value: 50 },
      ]),
      { user: h.discord.fixtures.users.member3, locale },
    );
    await handle.waitFor((x) => ephemeralError(x) !== undefined);
    const shown = localizedCommandName(locale, 'compression');
    expect(shown).not.toBe('compression');
    expect(ephemeralError(handle)).toContain(shown);
    expect(ephemeralError(handle)).not.toContain('compression');
  });
});
