import { describe, expect, it } from 'vitest';
import { actionLine, changeLine, jobLine, pauseLine } from '../../src/discord/audit-poster.js';
import type { AuditedJob } from '../../src/ports/audit-trail.js';
import { GUILD_ID, imagineJob } from '../fakes/jobs.js';

function entry(guildLocale?: string): AuditedJob {
  const job = imagineJob();
  return {
    guildId: GUILD_ID,
    auditChannelId: '400000000000000009',
    job: { ...job, origin: { ...job.origin, guildLocale } },
    outcome: 'delivered',
    model: 'gpt-image-2',
    count: 2,
    delivered: 2,
    messageId: '500000000000000001',
  };
}

describe('audit lines in the server’s preferred language', () => {
  it('writes a job line in English by default', () => {
    const line = jobLine(entry());
    expect(line).toMatch(/^✅ delivered · <@\d+> · \/imagine in <#400000000000000001> · `gpt-image-2` · 2 of 2 images · \[result\]\(/);
    expect(line).toMatch(/\n-# job job\d+$/);
  });

  it('writes a job line in the guild locale', () => {
    const line = jobLine(entry('ja'));
    expect(line).toMatch(/^✅ 配信済み · <@\d+> · \/imagine（<#400000000000000001>） · `gpt-image-2` · 2 枚中 2 枚 · \[結果\]\(/);
    expect(line).toMatch(/\n-# ジョブ job\d+$/);
  });

  it('writes a member paused by moderation strikes in the guild locale, English by default', () => {
    const pause = { guildId: GUILD_ID, auditChannelId: '1', userId: '42', strikes: 3, windowHours: 24, until: 1_780_000_000_000, jobId: 'job1' };
    expect(pauseLine(pause)).toBe(
      '⏸️ <@42> is paused from generating until <t:1780000000:f> (<t:1780000000:R>): 3 requests declined by moderation within 24 hours\n-# job job1',
    );
    expect(pauseLine({ ...pause, strikes: 1, windowHours: 1, locale: 'ru' })).toBe(
      '⏸️ Создание изображений для <@42> приостановлено до <t:1780000000:f> (<t:1780000000:R>): модерация отклонила 1 запрос за 1 час\n-# задача job1',
    );
  });

  it('writes a settings change in the guild locale, English by default', () => {
    const change = { guildId: GUILD_ID, auditChannelId: '1', by: '42', setting: 'previews', before: { previews: true }, after: { previews: true } };
    expect(changeLine(change)).toBe('⚙️ <@42> changed the settings (`/settings previews`): nothing changed');
    expect(changeLine({ ...change, locale: 'de', after: {} })).toBe(
      '⚙️ <@42> hat die Einstellungen (`/settings previews`) geändert\npreviews: `true` → `nicht gesetzt`',
    );
  });

  it('writes a quota change for the server in the guild locale, a member or role as a mention', () => {
    const change = {
      guildId: GUILD_ID,
      auditChannelId: '1',
      by: '42',
      setting: '/quota set',
      target: { kind: 'server', guildId: GUILD_ID } as const,
      before: {},
      after: { limit: 3, period: 'day' },
    };
    expect(changeLine(change)).toBe('⚙️ <@42> changed `/quota set` for the server\nlimit: `unset` → `3`\nperiod: `unset` → `"day"`');
    expect(changeLine({ ...change, locale: 'ja' })).toBe(
      '⚙️ <@42> がサーバー の `/quota set`を変更しました\nlimit: `未設定` → `3`\nperiod: `未設定` → `"day"`',
    );
    expect(changeLine({ ...change, locale: 'de', target: { kind: 'member', guildId: GUILD_ID, userId: '7' } })).toMatch(
      /^⚙️ <@42> hat `\/quota set` für <@7> geändert\n/,
    );
    expect(changeLine({ ...change, locale: 'ru', target: { kind: 'role', guildId: GUILD_ID, roleId: '8' } })).toMatch(
      /^⚙️ <@42> изменил\(а\) `\/quota set` для <@&8>\n/,
    );
  });
});

describe('audit lines with what a member typed (issue 29)', () => {
  it('shows a hostile model, size and quality of a refused job literally, inside code spans that cannot be closed', () => {
    const hostile = 'x` **[Security notice: re-verify your admin account](https://evil.example/login)** `';
    const line = jobLine({ ...entry(), outcome: 'refused', reason: 'input.invalid', model: hostile, size: '**big** [a](https://x.y)', quality: '`x`\nhi' });
    const [first] = line.split('\n');
    expect(first).toContain('· `xˋ **[Security notice: re-verify your admin account](https://evil.example/login)…` ·');
    expect(first).toContain('· `**big** [a](https://x.y)` ·');
    expect(first).toContain('· `ˋxˋ hi` ·');
    // Every backtick left is one of the spans' own: an even number, each span whole.
    expect((first!.match(/`/g) ?? []).length % 2).toBe(0);
  });

  it('keeps validated values plain', () => {
    const line = jobLine({ ...entry(), size: '1024x1024', quality: 'high' });
    expect(line).toContain('· `gpt-image-2` · 1024x1024 · high ·');
  });

  it('writes what members made of results: emoji, stickers, showcase posts and styles, names inert', () => {
    const base = { guildId: GUILD_ID, auditChannelId: '1', userId: '42' };
    expect(actionLine({ ...base, action: 'emoji', name: 'lighthouse' })).toBe('😀 <@42> added the emoji `lighthouse`');
    expect(actionLine({ ...base, action: 'sticker', name: 'Light `@everyone`' })).toBe('🏷️ <@42> added the sticker `Light ˋ@everyoneˋ`');
    const link = 'https://discord.com/channels/1/2/3';
    expect(actionLine({ ...base, action: 'showcase', authorId: '7', link })).toBe(`⭐ <@42> posted <@7>'s result to the showcase · [post](${link})`);
    expect(actionLine({ ...base, action: 'style', name: 'noir', serverStyle: true })).toBe('🎨 <@42> saved the server style `noir`');
    expect(actionLine({ ...base, action: 'styleDeleted', name: 'noir' })).toBe('🗑️ <@42> deleted the style `noir`');
    expect(actionLine({ ...base, action: 'emoji', name: 'phare', locale: 'fr' })).toBe('😀 <@42> a ajouté l’emoji `phare`');
  });
});
