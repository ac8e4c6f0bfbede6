/**
 * The admin commands in their admin's language (issue 19): /settings, /quota, /usage and /models answer in the
 * interaction's locale, and a quota change is told to the audit channel in the server's (its guild_locale).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SlashOption } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { lastText } from './support.js';

describe('admin commands in the admin’s language', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const run = async (command: string, options: SlashOption[], locale: string, guildLocale = 'en-US'): Promise<string> => {
    const handle = h.discord.slash(command, options, { user: h.discord.fixtures.admin, locale, guildLocale });
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200) || x.acks.some((a) => a.type === 4));
    return lastText(handle);
  };
  const sub = (name: string, options: SlashOption[] = []): SlashOption[] => [{ name, type: 1, options }];

  it('shows /settings in Japanese', async () => {
    const text = await run('settings', sub('show'), 'ja');
    expect(text).toContain('**このサーバーの設定**');
    expect(text).toContain('1 回のリクエストの最大枚数：ボットの上限（10）');
    expect(text).not.toMatch(/Settings for this server|Most images per request/);
  });

  it('answers /quota set in Chinese and tells the audit channel in the server’s Japanese', async () => {
    const audit = h.discord.fixtures.guild.channels.nsfw;
    expect(await run('settings', sub('audit', [{ name: 'channel', type: 7, value: audit.id }]), 'zh-CN', 'ja')).toMatch(
      /^✅ 设置已更改。\n\n\*\*本服务器的设置\*\*/,
    );

    const text = await run(
      'quota',
      sub('set', [
        { name: 'limit', type: 4, value: 3 },
        { name: 'period', type: 3, value: 'week' },
      ]),
      'zh-CN',
      'ja',
    );
    expect(text).toBe('✅ 本服务器所有人（默认）：每周 3 张图片。');
    const admin = h.discord.fixtures.admin.id;
    await vi.waitFor(() =>
      expect([...h.discord.messages.values()].filter((m) => m.channel_id === audit.id).map((m) => m.content)).toContain(
        `⚙️ <@${admin}> がサーバー の \`/quota set\`を変更しました\nlimit: \`未設定\` → \`3\`\nperiod: \`未設定\` → \`"week"\``,
      ),
    );
    expect(await run('quota', sub('money', [{ name: 'usd', type: 10, value: 2.5 }]), 'zh-CN', 'ja')).toBe('✅ 本服务器所有人（默认）：每月最多 US$2.50。');
  });

  it('reports /usage in German', async () => {
    const text = await run('usage', [{ name: 'period', type: 3, value: 'week' }], 'de');
    expect(text).toMatch(
      /^\*\*Nutzung auf diesem Server diese Woche\*\* \(seit <t:\d+:D>\)\nBilder: 0 aus 0 Anfragen · Kosten: nichts gemeldet oder geschätzt\n/,
    );
  });

  it('lists /models in Korean', async () => {
    const text = await run('models', [], 'ko');
    expect(text).toMatch(/^\*\*이미지 모델\*\*\n• `[^`]+` \(기본값\)\n/);
    expect(text).toMatch(/\n-# `\/이미지생성` 또는 `\/이미지편집`의 `모델` 옵션에서 고르세요\.$/);
  });

  it('sent nothing Discord would reject', () => {
    expect(h.discord.specViolations).toEqual([]);
  });
});
