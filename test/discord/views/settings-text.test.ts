import { describe, expect, it } from 'vitest';
import { renderSettings } from '../../../src/discord/views/settings-text.js';
import { DEFAULT_SETTINGS, type ServerSettings } from '../../../src/core/server-settings.js';

const CHANGED_AT = Date.parse('2025-06-04T12:00:00Z');

const configured: ServerSettings = {
  ...DEFAULT_SETTINGS,
  defaults: { size: { width: 1536, height: 1024 }, quality: 'low' },
  allowedModels: ['gpt-image-1', 'gpt-image-1-mini'],
  maxCount: 2,
  maxSize: { width: 1536, height: 1024 },
  channels: { mode: 'only', ids: ['400000000000000001', '400000000000000002'] },
  nsfw: { mode: 'roles', roleIds: ['500000000000000001'] },
  spoilerChannelIds: ['400000000000000003'],
  previews: false,
  promptHelp: false,
  describeLimit: { count: 3, period: 'week' },
  priority: {
    boosters: { lane: 'priority', quotaMultiplier: 2, moneyMultiplier: 1 },
    roles: [{ roleId: '500000000000000002', lane: 'normal', quotaMultiplier: 1, moneyMultiplier: 3 }],
  },
  confirmAboveUsd: 0.25,
  auditChannelId: '400000000000000009',
  showcaseChannelId: '400000000000000010',
  updatedBy: '200000000000000099',
  updatedAt: CHANGED_AT,
};

describe('renderSettings', () => {
  it('tells an admin every setting, in English by default', () => {
    expect(renderSettings(DEFAULT_SETTINGS)).toBe(
      [
        '**Settings for this server**',
        "Defaults: none (the bot's defaults)",
        'Drafts: off',
        'Models members may use: any the gateway lists',
        "Most images per request: the bot's limit (10)",
        'Largest size: any · highest quality: any',
        'Image generation: everywhere (threads follow their channel)',
        'moderation:low: in age-restricted channels, and for admins',
        'Spoilers: none',
        'Previews while generating: on (each preview costs extra output tokens)',
        'Prompt help (enhance, `/describe`): on where the bot has a chat model (channel rules apply)',
        'Describes per member: no cap',
        'Priority perks: none',
        'Cost confirmation: never asked',
        'Audit channel: none',
        'Showcase channel: none',
      ].join('\n'),
    );
    expect(renderSettings(configured, 'en-US')).toBe(
      [
        '**Settings for this server**',
        'Defaults: size `1536x1024` · quality `low`',
        'Drafts: off',
        'Models members may use: `gpt-image-1`, `gpt-image-1-mini`',
        'Most images per request: 2',
        'Largest size: 1536x1024 · highest quality: any',
        'Image generation: only in <#400000000000000001>, <#400000000000000002> (threads follow their channel)',
        'moderation:low: for <@&500000000000000001> (and admins), anywhere',
        'Spoilers: results in <#400000000000000003> (no previews there)',
        'Previews while generating: off',
        'Prompt help (enhance, `/describe`): off',
        'Describes per member: 3 per week',
        'Priority perks: server boosters: priority lane, images ×2, money ×1 · <@&500000000000000002>: normal lane, images ×1, money ×3 (priority jobs start first; everyone else keeps at least one start in every 4)',
        'Cost confirmation: members confirm requests estimated above $0.25',
        'Audit channel: <#400000000000000009>',
        'Showcase channel: <#400000000000000010>',
        `-# Last changed by <@200000000000000099> <t:${CHANGED_AT / 1000}:R>. Admins (Manage Server) are not bound by the model and count limits.`,
      ].join('\n'),
    );
  });

  it('writes every line in the admin’s language', () => {
    expect(renderSettings(configured, 'ja')).toBe(
      [
        '**このサーバーの設定**',
        '既定値：サイズ `1536x1024` · 品質 `low`',
        '下書き：オフ',
        'メンバーが使えるモデル：`gpt-image-1`、`gpt-image-1-mini`',
        '1 回のリクエストの最大枚数：2',
        '最大サイズ：1536x1024 · 最高品質：制限なし',
        '画像生成：<#400000000000000001>、<#400000000000000002> のみ（スレッドは親チャンネルに従います）',
        'moderation:low：<@&500000000000000001>（と管理者）はどこでも使えます',
        'スポイラー：<#400000000000000003> の結果（そこではプレビューなし）',
        '生成中のプレビュー：オフ',
        'プロンプト補助（改善、`/説明`）：オフ',
        'メンバーごとの画像説明：1週間あたり3回',
        '優先特典：サーバーブースター：優先レーン、画像 ×2、金額 ×1 · <@&500000000000000002>：通常レーン、画像 ×1、金額 ×3（優先ジョブが先に始まり、ほかのメンバーも 4 回に 1 回以上は始まります）',
        '費用の確認：見積もりが $0.25 を超えるリクエストはメンバーが確認します',
        '監査チャンネル：<#400000000000000009>',
        'ショーケースチャンネル：<#400000000000000010>',
        `-# 最終変更：<@200000000000000099>（<t:${CHANGED_AT / 1000}:R>）。管理者（サーバー管理）はモデルと枚数の制限を受けません。`,
      ].join('\n'),
    );
    expect(renderSettings(DEFAULT_SETTINGS, 'de')).toContain('Höchstzahl Bilder pro Anfrage: das Limit des Bots (10)');
    expect(renderSettings({ ...DEFAULT_SETTINGS, confirmAboveUsd: 0.25 }, 'fr')).toMatch(/les membres confirment les demandes estimées au-delà de 0,25\s\$US/);
  });
});
