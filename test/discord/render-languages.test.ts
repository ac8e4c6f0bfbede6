import type { APIButtonComponent } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { renderCostAnswer, renderCostConfirmation, renderProgress } from '../../src/discord/views/render.js';
import { resultCard } from '../../src/discord/views/result-card.js';
import type { Delivery } from '../../src/core/jobs.js';
import { imagineJob } from '../fakes/jobs.js';
import { cardText } from './card-text.js';

function delivery(locale: string): Delivery {
  const job = imagineJob({ prompt: 'a lighthouse', size: { width: 1536, height: 1024 }, quality: 'high' });
  return {
    job: { ...job, origin: { ...job.origin, locale } },
    model: 'gpt-image-1',
    files: [{ bytes: Buffer.from('x'), format: 'png', width: 1024, height: 1024 }],
    notices: [{ kind: 'reencoded', count: 3, format: 'webp' }],
    actions: { edits: true, masks: true, enlarge: true },
  };
}

const labelsOf = (components: readonly unknown[]): string[] =>
  JSON.stringify(components)
    .match(/"label":"[^"]*"/g)
    ?.map((l) => l.slice(9, -1)) ?? [];

describe('progress and results in the member’s language', () => {
  it('writes progress in the interaction’s locale', () => {
    expect(renderProgress({ stage: 'queued', position: 3 }, 'ja')).toBe('⏳ 待機中：3 番目です。');
    expect(renderProgress({ stage: 'generating', startedAt: 1_000_000 }, 'zh-CN')).toBe('🎨 生成中… 开始于<t:1000:R>');
    expect(renderProgress({ stage: 'queued', position: 3 })).toBe('⏳ Queued: position 3.');
  });

  it('writes the caption, notices and button labels of a result in the requester’s locale', () => {
    expect(cardText(delivery('ja'))).toContain('のために生成 · gpt-image-1 · 1024×1024 · 品質 high');
    expect(cardText(delivery('ru'))).toContain('-# 3 изображения перекодированы в WEBP');
    const card = resultCard(delivery('de'), [{ name: 'a.png' }], { index: 1, total: 1, firstImage: 0 });
    expect(labelsOf(card.components)).toEqual(expect.arrayContaining(['Variieren (leicht)', 'Vergrößern', 'Neu würfeln', 'Löschen']));
    expect(labelsOf(card.components)).not.toContain('Delete');
  });

  it.each([
    ['ja', 'サービスから返ってきた画像は 3 枚中 1 枚でした。料金は 1 枚分です。'],
    ['ru', 'Сервис вернул 2 из 5 изображений; оплачено 2 изображения.'],
    ['de', 'Der Dienst hat 1 von 3 Bildern geliefert; berechnet wurde 1 Bild.'],
    ['zh-TW', '服務只回傳了 3 張中的 1 張；只按 1 張扣費。'],
  ])('says in %s how many images came back and were charged', (locale, text) => {
    const [requested, received] = locale === 'ru' ? [5, 2] : [3, 1];
    const fewer = { ...delivery(locale), notices: [{ kind: 'fewer' as const, requested, received, charged: received }] };
    expect(cardText(fewer)).toContain(`-# ${text}`);
  });

  it('asks about the cost in the requester’s locale, money formatted for it', () => {
    const { content, components } = renderCostConfirmation({ id: 'c1', job: delivery('fr').job, estimateUsd: 1.5, thresholdUsd: 1 });
    expect(content).toMatch(/cette demande coûtera environ \*\*1,50\s\$US\*\* \(1 image\)/);
    const buttons = components[0]?.components.filter((c): c is APIButtonComponent & { label: string } => 'label' in c);
    expect(buttons?.map((b) => b.label)).toEqual([expect.stringMatching(/^Générer \(~1,50\s\$US\)$/), 'Annuler']);
  });
});

describe('the answered cost question in the clicker’s language', () => {
  it('says confirmed or cancelled in the clicker’s language, and in English for an unknown one', () => {
    expect(renderCostAnswer('confirmed', 'de')).toEqual({ content: '✅ Bestätigt. Es geht los…', components: [] });
    expect(renderCostAnswer('cancelled', 'ja').content).toBe('❌ キャンセルしました。料金は発生していません。');
    expect(renderCostAnswer('cancelled', 'xx').content).toBe('❌ Cancelled. Nothing was charged.');
  });
});
