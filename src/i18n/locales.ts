/**
 * The bot's languages: one catalogue per language (locales/*.json, English the base every other follows), and how a
 * Discord locale (an interaction's `locale`, a server's `guild_locale`) picks one.
 * @see https://discord.com/developers/docs/reference#locales
 */
import de from './locales/de.json' with { type: 'json' };
import en from './locales/en.json' with { type: 'json' };
import esES from './locales/es-ES.json' with { type: 'json' };
import fr from './locales/fr.json' with { type: 'json' };
import ja from './locales/ja.json' with { type: 'json' };
import ko from './locales/ko.json' with { type: 'json' };
import ptBR from './locales/pt-BR.json' with { type: 'json' };
import ru from './locales/ru.json' with { type: 'json' };
import zhCN from './locales/zh-CN.json' with { type: 'json' };
import zhTW from './locales/zh-TW.json' with { type: 'json' };

/** A key of the catalogues (English has them all; the parity test holds the others to it). */
export type MessageKey = keyof typeof en;

/** ICU MessageFormat strings by key. */
export type Catalogue = Readonly<Record<string, string>>;

/** The catalogues by language; `en` is the base and the fallback. */
export const CATALOGUES = {
  en,
  'zh-CN': zhCN,
  'zh-TW': zhTW,
  ja,
  ko,
  'es-ES': esES,
  'pt-BR': ptBR,
  fr,
  de,
  ru,
} as const satisfies Record<string, Catalogue>;

/** A language the bot speaks. */
export type Language = keyof typeof CATALOGUES;

export const BASE_LANGUAGE: Language = 'en';

export const LANGUAGES = Object.keys(CATALOGUES) as Language[];

/**
 * The Discord locales each non-English catalogue localizes commands for. Spanish serves both of Discord's Spanish
 * locales (Spain and Latin America); English is the commands' base text, so en-US and en-GB need none.
 */
export const DISCORD_LOCALES: Readonly<Record<Exclude<Language, 'en'>, readonly string[]>> = {
  'zh-CN': ['zh-CN'],
  'zh-TW': ['zh-TW'],
  ja: ['ja'],
  ko: ['ko'],
  'es-ES': ['es-ES', 'es-419'],
  'pt-BR': ['pt-BR'],
  fr: ['fr'],
  de: ['de'],
  ru: ['ru'],
};

const isLanguage = (value: string): value is Language => Object.hasOwn(CATALOGUES, value);

/**
 * The catalogue for a Discord locale: the exact one (`zh-TW`), else one of the same language (`es-419` → `es-ES`,
 * `en-GB` → `en`), else English. Unknown or missing locales get English.
 */
export function resolveLanguage(locale: string | null | undefined): Language {
  if (!locale) return BASE_LANGUAGE;
  if (isLanguage(locale)) return locale;
  const language = locale.split('-')[0]?.toLowerCase();
  return LANGUAGES.find((l) => l.split('-')[0] === language) ?? BASE_LANGUAGE;
}

/** The BCP 47 tag Intl formats a language's numbers and lists with. */
export function intlLocaleOf(language: Language): string {
  return language === 'en' ? 'en-US' : language;
}
