import { describe, expect, it } from 'vitest';
import { MAX_ALT_TEXT, numberLocale, usageChartAlt, usageChartMissing, usageChartTexts } from '../../../src/discord/views/usage-chart-text.js';
import { LANGUAGES } from '../../../src/i18n/locales.js';
import { day } from '../../fakes/usage-days.js';

const NOVEMBER = Array.from({ length: 30 }, (_, i) =>
  day(`2026-11-${String(i + 1).padStart(2, '0')}`, { 'gpt-image-2': i === 13 ? 40 : 10 }, { '1': i === 13 ? 40 : 10 }),
);
const models = [{ model: 'gpt-image-2' }];

describe("the chart's alt text", () => {
  it('says what the chart shows, over which days, the totals and the busiest day', () => {
    expect(usageChartAlt({ days: NOVEMBER, models: models as never }, 'en-US')).toBe(
      'Chart of images and cost per day by model and by top members, November 1\u2009–\u200930: 330 images, $13.20; busiest day November 14 (40 images).',
    );
  });

  it("names only what is drawn: a member's or a role's chart has no models", () => {
    const week = NOVEMBER.slice(0, 7);
    expect(usageChartAlt({ days: week, models: [] }, undefined)).toMatch(
      /^Chart of images and cost per day by member, November 1\u2009–\u20097: 70 images, \$2\.80;/,
    );
  });

  it('names the earliest of equally busy days', () => {
    const even = [day('2026-11-01', {}, { '1': 1 }), day('2026-11-02', {}, { '1': 2 }), day('2026-11-03', {}, { '1': 2 })];
    expect(usageChartAlt({ days: even, models: [] }, 'en-US')).toMatch(/busiest day November 2 \(2 images\)\.$/);
  });

  it('is written in the admin’s language', () => {
    const summary = { days: NOVEMBER, models: models as never };
    expect(usageChartAlt(summary, 'de')).toBe(
      'Diagramm der Bilder und Kosten pro Tag nach Modell und nach Top-Mitglied, 1.–30. November: 330 Bilder, 13,20\u00a0$; stärkster Tag 14. November (40 Bilder).',
    );
    expect(usageChartAlt(summary, 'ja')).toBe(
      '日別の画像数と費用のグラフ（モデル別・上位メンバー別）、11/01～11/30：330 枚、$13.20。最も多かった日は 11月14日（40 枚）。',
    );
  });

  it.each(LANGUAGES)('stays within Discord’s %s description limit with the largest figures', (language) => {
    const big = Array.from({ length: 31 }, (_, i) => ({
      ...day(`2026-12-${String(i + 1).padStart(2, '0')}`, {}, {}),
      images: 99_999_999,
      costUsd: 9_999_999.99,
    }));
    const alt = usageChartAlt({ days: big, models: models as never }, language);
    expect(alt.length).toBeGreaterThan(40);
    expect(alt.length).toBeLessThanOrEqual(MAX_ALT_TEXT);
  });
});

describe("the chart's words", () => {
  it('titles the axes and legends and writes the days in the admin’s language', () => {
    const de = usageChartTexts('de');
    expect([de.images, de.cost, de.day, de.model, de.member, de.others, de.dayLabel('2026-11-14')]).toEqual([
      'Bilder',
      'Kosten (USD)',
      'Tag',
      'Modell',
      'Mitglied',
      'Andere',
      '14. Nov.',
    ]);
    expect(usageChartTexts('en-US').dayLabel('2026-11-04')).toBe('Nov 4');
    expect(usageChartMissing('fr')).toBe('-# Pas de graphique cette fois : il n’a pas pu être dessiné. Les chiffres ci-dessus sont complets.');
  });

  it.each([
    ['en-US', { decimal: '.', thousands: ',', currency: ['$', ''] }],
    ['de', { decimal: ',', thousands: '.', currency: ['', '\u00a0$'] }],
    ['fr', { decimal: ',', thousands: '\u202f', currency: ['', '\u00a0$US'] }],
    ['ja', { decimal: '.', thousands: ',', currency: ['$', ''] }],
  ])('writes amounts as %s does', (locale, expected) => {
    expect(numberLocale(locale)).toEqual({ ...expected, grouping: [3] });
  });
});
