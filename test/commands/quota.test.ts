import { describe, expect, it } from 'vitest';
import { renderLimitChange, renderMoneyChange, renderStatus, renderUsageReset } from '../../src/discord/views/quota-text.js';
import { QuotaSetRequest } from '../../src/commands/quota-data.js';
import type { QuotaStatus, QuotaTarget } from '../../src/core/quota.js';

const RESETS_AT = Date.parse('2025-06-02T00:00:00Z');

function status(overrides: Partial<QuotaStatus> = {}): QuotaStatus {
  return { limit: 5, period: 'day', used: 2, reserved: 0, remaining: 3, resetsAt: RESETS_AT, source: 'default', ...overrides };
}

describe('renderStatus', () => {
  it('tells a member in their language', () => {
    expect(renderStatus(status(), undefined, 'ja')).toBe(
      ['**あなたの今日の残りは 5 枚中 3 枚**です。', `使用済み：2 · リセット：<t:${RESETS_AT / 1000}:R>`, '-# 上限の出どころ：ボットの既定'].join('\n'),
    );
    expect(renderStatus(status({ period: 'week' }), '<@42>', 'zh-CN')).toMatch(/^\*\*<@42>在本周还剩 3 \/ 5 张图片\*\*。/);
  });

  it('tells a member what is left, what was used and when it resets', () => {
    expect(renderStatus(status(), undefined)).toBe(
      ['**You have 3 of 5 images left** this day.', `Used: 2 · resets <t:${RESETS_AT / 1000}:R>`, "-# Limit from: the bot's default"].join('\n'),
    );
  });

  it('says how many images are in progress when some are reserved', () => {
    expect(renderStatus(status({ reserved: 2, remaining: 1 }), undefined)).toContain('Used: 2 (2 in progress)');
    expect(renderStatus(status(), undefined)).not.toContain('in progress');
  });

  it('speaks of another member in the third person', () => {
    expect(renderStatus(status({ period: 'week' }), '<@42>')).toMatch(/^\*\*<@42> has 3 of 5 images left\*\* this week\./);
  });

  it('says a member with limit 0 cannot generate images', () => {
    expect(renderStatus(status({ limit: 0, remaining: 0, used: 0 }), undefined)).toBe("You can't generate images here (limit 0).");
  });

  it.each<[QuotaStatus['source'], string]>([
    ['member', 'a limit set for this member'],
    ['role', 'a role limit (the most generous applies)'],
    ['server', "this server's default"],
    ['default', "the bot's default"],
  ])('names the source %s', (source, text) => {
    expect(renderStatus(status({ source }), undefined)).toContain(`-# Limit from: ${text}`);
  });
});

const server: QuotaTarget = { kind: 'server', guildId: '300000000000000001' };
const member: QuotaTarget = { kind: 'member', guildId: '300000000000000001', userId: '42' };
const role: QuotaTarget = { kind: 'role', guildId: '300000000000000001', roleId: '77' };

describe('the answers to /quota set, money and reset', () => {
  it('tell an admin the limit now and before, in English by default', () => {
    expect(renderLimitChange(server, { before: { limit: 5, period: 'week' }, after: { limit: 3, period: 'day' } })).toBe(
      '✅ Everyone on this server (default): 3 images per day (was 5 per week).',
    );
    expect(renderLimitChange(member, { before: undefined, after: { limit: 1, period: 'month' } })).toBe('✅ <@42>: 1 image per month.');
    expect(renderLimitChange(role, { before: undefined, after: { limit: 0, period: 'day' } })).toBe('✅ <@&77>: blocked (limit 0).');
    expect(renderMoneyChange(server, { before: undefined, after: { usd: 0.3, period: 'day' } })).toBe(
      '✅ Everyone on this server (default): at most $0.30 per day.',
    );
    expect(renderMoneyChange(member, { before: { usd: 0, period: 'month' }, after: undefined })).toBe(
      '✅ <@42>: no spending limit of its own any more (was $0.00 per month).',
    );
    expect(renderMoneyChange(member, { before: undefined, after: { usd: 0, period: 'week' } })).toBe('✅ <@42>: blocked (spending limit $0).');
    expect(renderUsageReset('42', 2)).toBe("✅ Cleared <@42>'s usage for the current period (was 2).");
  });

  it('tell an admin in their language, with its periods, plurals and money', () => {
    expect(renderLimitChange(server, { before: { limit: 5, period: 'week' }, after: { limit: 3, period: 'day' } }, 'zh-CN')).toBe(
      '✅ 本服务器所有人（默认）：每日 3 张图片（原为每周 5 张）。',
    );
    expect(renderLimitChange(member, { before: undefined, after: { limit: 3, period: 'week' } }, 'ru')).toBe('✅ <@42>: 3 изображения в неделю.');
    expect(renderLimitChange(member, { before: undefined, after: { limit: 5, period: 'week' } }, 'ru')).toBe('✅ <@42>: 5 изображений в неделю.');
    expect(renderMoneyChange(role, { before: { usd: 2.5, period: 'month' }, after: { usd: 0.3, period: 'day' } }, 'fr')).toMatch(
      /^✅ <@&77> : au plus 0,30\s\$US par jour \(avant : 2,50\s\$US par mois\)\.$/,
    );
    expect(renderUsageReset('42', 2, 'ja')).toBe('✅ <@42> の現在の期間の使用量をリセットしました（リセット前：2）。');
  });
});

describe('QuotaSetRequest', () => {
  it.each([[{ limit: 10 }], [{ limit: 0, userId: '42' }], [{ limit: 3, roleId: '77', period: 'week' }]])('GIVEN %o THEN accepted', (input) => {
    expect(QuotaSetRequest.safeParse(input).success).toBe(true);
  });

  it('refuses a user and a role together, saying why', () => {
    const parsed = QuotaSetRequest.safeParse({ limit: 3, userId: '42', roleId: '77' });
    expect(parsed.success).toBe(false);
    // The message names its phrase, which /quota shows in the member's language.
    expect(parsed.error?.issues[0]?.message).toBe('detail.target.both');
  });

  it.each([[{ limit: -1 }], [{ limit: 1.5 }], [{ limit: 2, period: 'year' }]])('GIVEN %o THEN refused', (input) => {
    expect(QuotaSetRequest.safeParse(input).success).toBe(false);
  });
});
