import { describe, expect, it } from 'vitest';
import { BASE_LANGUAGE, CATALOGUES, LANGUAGES, intlLocaleOf, type Catalogue } from '../../src/i18n/locales.js';
import { argumentsOf } from './icu-arguments.js';

const english: Catalogue = CATALOGUES.en;
const others = LANGUAGES.filter((l) => l !== BASE_LANGUAGE);

/** Argument names with how they are used, e.g. `count:number`, `kind:select`, `requester:text`. */
const signature = (message: string, language: (typeof LANGUAGES)[number]): string[] =>
  [...argumentsOf(message, intlLocaleOf(language))].map(([name, use]) => `${name}:${use.kind === 'text' ? 'text' : use.kind}`).sort();

describe('the catalogues', () => {
  it('speak at least the ten languages of issue 19', () => {
    expect(LANGUAGES).toEqual(expect.arrayContaining(['en', 'zh-CN', 'zh-TW', 'ja', 'ko', 'es-ES', 'pt-BR', 'fr', 'de', 'ru']));
  });

  it.each(others)('%s has every key English has, and no other', (language) => {
    const catalogue: Catalogue = CATALOGUES[language];
    expect(
      Object.keys(catalogue).filter((k) => !(k in english)),
      'keys English lacks',
    ).toEqual([]);
    expect(
      Object.keys(english).filter((k) => !(k in catalogue)),
      'keys missing',
    ).toEqual([]);
  });

  it.each(others)('%s uses exactly the placeholders English uses, in the same way', (language) => {
    const catalogue: Catalogue = CATALOGUES[language];
    const differing = Object.entries(english)
      .filter(([key]) => key in catalogue)
      .filter(([key, message]) => signature(message, BASE_LANGUAGE).join() !== signature(catalogue[key] ?? '', language).join())
      .map(([key]) => key);
    expect(differing).toEqual([]);
  });

  it.each(LANGUAGES)('%s has no empty message', (language) => {
    const catalogue: Catalogue = CATALOGUES[language];
    expect(Object.entries(catalogue).filter(([, message]) => message.trim() === '')).toEqual([]);
  });
});
