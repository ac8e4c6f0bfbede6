import { describe, expect, it } from 'vitest';
import { renderModels } from '../../../src/discord/views/models-text.js';
import { renderRoleUsage, renderUsage } from '../../../src/discord/views/usage-text.js';
import type { GatewayModel } from '../../../src/core/images.js';
import type { UsageSummary } from '../../../src/core/reports.js';

const FROM = Date.parse('2025-06-01T00:00:00Z');

function summary(overrides: Partial<UsageSummary> = {}): UsageSummary {
  return {
    from: FROM,
    images: 4,
    jobs: 3,
    members: [
      { userId: '200000000000000001', images: 3, jobs: 2, costUsd: 0.053 },
      { userId: '200000000000000002', images: 1, jobs: 1, costUsd: 0.0109 },
    ],
    models: [
      { model: 'gpt-image-2', images: 3, jobs: 2, costUsd: 0.053 },
      { model: 'gpt-image-1', images: 1, jobs: 1, costUsd: 0.0109 },
    ],
    refusals: { 'quota.exceeded': 1 },
    failures: 1,
    reportedUsd: 0.0639,
    estimatedUsd: 0,
    costUsd: 0.0639,
    jobIds: [],
    jobIdsCut: false,
    promptHelpCalls: 0,
    promptHelpUsd: 0,
    days: [],
    ...overrides,
  };
}

describe('/usage in the admin’s language', () => {
  it('reports the server in English, refusal reasons as code', () => {
    expect(renderUsage(summary(), 'month', undefined)).toBe(
      [
        `**Usage on this server this month** (since <t:${FROM / 1000}:D>)`,
        'Images: 4 from 3 requests · cost: $0.0639 reported',
        'Top members: <@200000000000000001> 3 ($0.0530), <@200000000000000002> 1 ($0.0109)',
        'By model: `gpt-image-2` 3, `gpt-image-1` 1',
        'Refused: `quota.exceeded` 1 · failed: 1',
      ].join('\n'),
    );
    expect(renderUsage(summary({ jobs: 1, reportedUsd: 0, estimatedUsd: 0, jobIdsCut: true }), 'day', undefined)).toContain(
      'Images: 4 from 1 request · cost: none reported or estimated',
    );
    expect(renderUsage(summary({ jobIdsCut: true }), 'day', undefined)).toContain('-# The CSV holds the first 5,000 jobs of each day.');
  });

  it("reports prompt help's chat calls and cost, the server's and a member's, only when there were any", () => {
    expect(renderUsage(summary({ promptHelpCalls: 3, promptHelpUsd: 0.0021 }), 'day', undefined)).toContain(
      'By model: `gpt-image-2` 3, `gpt-image-1` 1\nPrompt help: 3 chat calls · cost: $0.0021\n',
    );
    expect(renderUsage(summary(), 'day', undefined)).not.toContain('Prompt help');
    expect(renderUsage(summary({ promptHelpUsd: 0.0007 }), 'day', '200000000000000001')).toContain('\nPrompt help cost: $0.0007\n');
  });

  it('reports the server, a member and a role in German', () => {
    expect(renderUsage(summary({ estimatedUsd: 0.01 }), 'week', undefined, 'de')).toBe(
      [
        `**Nutzung auf diesem Server diese Woche** (seit <t:${FROM / 1000}:D>)`,
        'Bilder: 4 aus 3 Anfragen · Kosten: 0,0639\u00a0$ gemeldet + 0,0100\u00a0$ geschätzt',
        'Top-Mitglieder: <@200000000000000001> 3 (0,0530\u00a0$) und <@200000000000000002> 1 (0,0109\u00a0$)',
        'Nach Modell: `gpt-image-2` 3 und `gpt-image-1` 1',
        'Abgelehnt: `quota.exceeded` 1 · fehlgeschlagen: 1',
      ].join('\n'),
    );
    expect(renderUsage(summary({ jobs: 1, refusals: { all: 2 } }), 'day', '200000000000000001', 'de')).toBe(
      [`**Nutzung von <@200000000000000001> heute** (seit <t:${FROM / 1000}:D>)`, 'Bilder: 4 aus 1 Anfrage · Kosten: 0,0530\u00a0$', 'Abgelehnt: 2'].join('\n'),
    );
    expect(renderRoleUsage(summary(), 'month', '500000000000000001', 'de')).toMatch(
      /^\*\*Nutzung der Mitglieder mit <@&500000000000000001> diesen Monat\*\*[^\n]*\nBilder: 4 aus 3 Anfragen · Kosten: 0,0639\u00a0\$\n/,
    );
  });

  it('uses each language’s plural rules for requests', () => {
    expect(renderUsage(summary({ jobs: 3 }), 'month', undefined, 'ru')).toContain('Изображения: 4 из 3 запросов');
    expect(renderUsage(summary({ jobs: 1 }), 'month', undefined, 'ru')).toContain('Изображения: 4 из 1 запроса');
  });
});

describe('/models in the member’s language', () => {
  const models: GatewayModel[] = [
    { id: 'gpt-image-2', image: true, default: true },
    { id: 'gpt-image-1', image: true, shutdownDate: '2099-12-01' },
  ];

  it('marks the default and the shutdown dates, in English by default', () => {
    expect(renderModels(models)).toBe(
      [
        '**Image models**',
        '• `gpt-image-2` (default)',
        '• `gpt-image-1` · shuts down <t:4099766400:D>',
        '-# Pick one with the `model` option of `/imagine` or `/edit`.',
      ].join('\n'),
    );
  });

  it('writes them in Korean', () => {
    expect(renderModels(models, 'ko')).toBe(
      [
        '**이미지 모델**',
        '• `gpt-image-2` (기본값)',
        '• `gpt-image-1` · <t:4099766400:D>에 종료 예정',
        '-# `/이미지생성` 또는 `/이미지편집`의 `모델` 옵션에서 고르세요.',
      ].join('\n'),
    );
  });
});
