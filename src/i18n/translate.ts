/**
 * Text in a member's language: `t(locale, key, values)` renders a catalogue message (ICU MessageFormat, through
 * i18next with i18next-icu) for a Discord locale, falling back to English for an unknown locale or a missing key.
 * The one i18next instance holds only the static catalogues, so sharing it is safe.
 */
import { createRequire } from 'node:module';
import i18next, { type i18n } from 'i18next';
import type IcuModule from 'i18next-icu';
import { BASE_LANGUAGE, CATALOGUES, intlLocaleOf, LANGUAGES, resolveLanguage, type Language, type MessageKey } from './locales.js';

/** Values a message may use: ICU arguments (numbers for plurals and `number` formats, strings for `select`). */
export type MessageValues = Readonly<Record<string, string | number>>;

/** Renders one message of one language. */
export type Translate = (key: MessageKey, values?: MessageValues) => string;

// i18next-icu's ES build default-imports intl-messageformat, a CommonJS package whose default Node's ESM loader
// does not unwrap ("IntlMessageFormat is not a constructor", every message then shown raw); its CommonJS build does.
const ICU = (createRequire(import.meta.url)('i18next-icu') as { default: typeof IcuModule }).default;

function createInstance(): i18n {
  const instance = i18next.createInstance();
  void instance.use(new ICU()).init({
    // The catalogues are bundled: initialise synchronously, so text can be rendered at once.
    initAsync: false,
    showSupportNotice: false,
    lng: BASE_LANGUAGE,
    fallbackLng: BASE_LANGUAGE,
    supportedLngs: LANGUAGES,
    // Keys are flat and contain dots and colons (`error.quota.exceeded`); nothing in them is a path.
    keySeparator: false,
    nsSeparator: false,
    // Discord text is not HTML: values go in as they are (the callers make member input inert).
    interpolation: { escapeValue: false },
    resources: Object.fromEntries(Object.entries(CATALOGUES).map(([language, catalogue]) => [language, { translation: catalogue }])),
  });
  return instance;
}

const instance = createInstance();

/** The renderer for a Discord locale (an interaction's `locale` or `guild_locale`); English when unknown. */
export function translator(locale: string | null | undefined): Translate {
  const fixed = instance.getFixedT(resolveLanguage(locale));
  return (key, values) => fixed(key, { ...values });
}

/** Renders one message in a Discord locale's language. */
export function t(locale: string | null | undefined, key: MessageKey, values?: MessageValues): string {
  return translator(locale)(key, values);
}

/**
 * US dollars as members of a language read them: cents, or a tenth of a cent below one cent (`$0.04`, `$0.004`;
 * `0,04 $US` in French).
 */
export function formatUsd(locale: string | null | undefined, value: number | undefined): string {
  const amount = value ?? 0;
  return usdTo(locale, amount, amount >= 0.01 || amount === 0 ? 2 : 3);
}

/** US dollars to a hundredth of a cent, for reports that add small costs up (`$0.0530`; `0,0530 $US` in French). */
export function formatUsdPrecise(locale: string | null | undefined, value: number): string {
  return usdTo(locale, value, 4);
}

function usdTo(locale: string | null | undefined, amount: number, digits: number): string {
  return new Intl.NumberFormat(intlLocaleOf(resolveLanguage(locale)), {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(amount);
}

/**
 * A short list as a language writes one (`a, b, c`; `a、b、c` in Japanese and Chinese; `a, b und c` in German). The
 * narrow conjunction: the `unit` lists run the items together in Chinese (`abc`) and space them in Japanese (`a b c`).
 */
export function formatList(locale: string | null | undefined, items: readonly string[]): string {
  return new Intl.ListFormat(intlLocaleOf(resolveLanguage(locale)), { style: 'narrow', type: 'conjunction' }).format(items);
}

/** A day as a language writes it (`Nov 25, 2026`; `2026/11/25`; `25.11.2026`), in UTC: for text Discord does not format itself. */
export function formatDay(locale: string | null | undefined, ms: number): string {
  return new Intl.DateTimeFormat(intlLocaleOf(resolveLanguage(locale)), { dateStyle: 'medium', timeZone: 'UTC' }).format(ms);
}

/** The language a Discord locale renders in. */
export function languageOf(locale: string | null | undefined): Language {
  return resolveLanguage(locale);
}
