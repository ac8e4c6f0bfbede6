import { describe, expect, it } from 'vitest';
import { CATALOGUES, LANGUAGES, intlLocaleOf, type MessageKey } from '../../src/i18n/locales.js';
import { formatUsd, t, translator } from '../../src/i18n/translate.js';
import { argumentsOf, sampleValues } from './icu-arguments.js';

const KEYS = Object.keys(CATALOGUES.en) as MessageKey[];

describe('every message in every language', () => {
  // Each select case and each plural form (1, 2, 5 cover one/few/many/other) is rendered at least once.
  it.each(LANGUAGES)('renders in %s with sample values, without a missing key or an ICU error', (language) => {
    const render = translator(language);
    for (const key of KEYS) {
      const uses = argumentsOf(CATALOGUES.en[key], intlLocaleOf(language));
      const caseCount = Math.max(1, ...[...uses.values()].map((u) => (u.kind === 'select' ? u.cases.length : 1)));
      for (const number of [1, 2, 5]) {
        for (let i = 0; i < caseCount; i++) {
          const values = sampleValues(uses, number, (cases) => cases[i % cases.length] ?? 'other');
          const text = render(key, values);
          expect(text, `${language} ${key}`).not.toBe(key);
          // A message i18next-icu cannot parse or format comes back raw, braces and all.
          expect(text, `${language} ${key}`).not.toMatch(/[{}]/);
        }
      }
    }
  });
});

describe('t', () => {
  it('renders a Discord locale in its language', () => {
    expect(t('ja', 'button.delete')).toBe('削除');
    expect(t('zh-CN', 'button.delete')).toBe('删除');
  });

  it('falls back to English for an unknown locale, and to the same language for a regional one', () => {
    expect(t('hu', 'button.delete')).toBe('Delete');
    expect(t(undefined, 'button.delete')).toBe('Delete');
    expect(t('en-GB', 'button.delete')).toBe('Delete');
    expect(t('es-419', 'button.delete')).toBe('Borrar');
  });

  it('uses each language’s plural rules', () => {
    expect(t('en', 'notice.reencoded', { count: 1, format: 'JPEG' })).toMatch(/^One image was/);
    expect(t('ru', 'notice.reencoded', { count: 3, format: 'JPEG' })).toMatch(/^3 изображения перекодированы/);
    expect(t('ru', 'notice.reencoded', { count: 5, format: 'JPEG' })).toMatch(/^5 изображений/);
  });

  it('formats US dollars as each language writes them', () => {
    expect(formatUsd('en-US', 0.04)).toBe('$0.04');
    expect(formatUsd('en-US', 0.004)).toBe('$0.004');
    expect(formatUsd('fr', 0.04)).toMatch(/^0,04\s\$US$/);
  });
});
