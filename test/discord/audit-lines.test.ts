import { describe, expect, it } from 'vitest';
import { changeLine, jobLine } from '../../src/discord/audit-poster.js';
import type { AuditedJob } from '../../src/service/audit-trail.js';
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

  it('writes a settings change in the guild locale, English by default', () => {
    const change = { guildId: GUILD_ID, auditChannelId: '1', by: '42', setting: 'previews', before: { previews: true }, after: { previews: true } };
    expect(changeLine(change)).toBe('⚙️ <@42> changed the settings (`/settings previews`): nothing changed');
    expect(changeLine({ ...change, locale: 'de', after: {} })).toBe(
      '⚙️ <@42> hat die Einstellungen (`/settings previews`) geändert\npreviews: `true` → `nicht gesetzt`',
    );
  });
});
