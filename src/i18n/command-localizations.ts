/**
 * Discord localizations for the command definitions, generated from the catalogues: one function decorates a
 * definition (its name, description, options, subcommands and choices) with `name_localizations` and
 * `description_localizations` for every language the bot speaks. The English text stays the base Discord falls back
 * to. The catalogues key a description by where it is (`command.description.imagine`,
 * `command.description.settings.prompt-help.describes`: the command, subcommand and option names), never by its
 * English words, so editing an English description keeps its translations; names and choices by themselves
 * (`command.name.prompt`, `command.choice.day`), as they are identifiers shared by several options. A text with no
 * entry in the catalogues is left unlocalized; a test holds the definitions to having them all.
 * @see https://discord.com/developers/docs/interactions/application-commands#localization
 */
import type { LocalizationMap } from 'discord.js';
import { CATALOGUES, DISCORD_LOCALES, LANGUAGES, resolveLanguage, type Catalogue } from './locales.js';

/** What localizations can decorate: a command, an option or subcommand, or a choice (plain JSON, as Discord takes it). */
interface Localizable {
  name: string;
  description?: string | undefined;
  options?: readonly unknown[] | undefined;
  choices?: readonly unknown[] | undefined;
}

/** The catalogue key of a command's, option's or subcommand's name, of a description, and of a choice's name. */
export const commandTextKey = {
  name: (english: string) => `command.name.${english}`,
  /** `path`: the command's name, then each subcommand's and option's down to the described one, joined by `.`. */
  description: (path: string) => `command.description.${path}`,
  choice: (english: string) => `command.choice.${english}`,
} as const;

/** The text of `key` in each Discord locale whose catalogue has it; undefined when none does. */
function localizationsOf(key: string): LocalizationMap | undefined {
  const map: Record<string, string> = {};
  for (const language of LANGUAGES) {
    if (language === 'en') continue;
    const catalogue: Catalogue = CATALOGUES[language];
    const text = catalogue[key];
    if (text === undefined) continue;
    for (const locale of DISCORD_LOCALES[language]) map[locale] = text;
  }
  return Object.keys(map).length > 0 ? map : undefined;
}

const isLocalizable = (value: unknown): value is Localizable =>
  typeof value === 'object' && value !== null && 'name' in value && typeof value.name === 'string';

/** `item` (at `path`; a choice when undefined) with its localizations, and its options' and choices', recursively. */
function decorate<T extends Localizable>(item: T, path: string | undefined): T {
  const names = localizationsOf(path === undefined ? commandTextKey.choice(item.name) : commandTextKey.name(item.name));
  // Context-menu commands have no description, or an empty one.
  const descriptions = item.description && path !== undefined ? localizationsOf(commandTextKey.description(path)) : undefined;
  return {
    ...item,
    ...(names ? { name_localizations: names } : {}),
    ...(descriptions ? { description_localizations: descriptions } : {}),
    ...(item.options ? { options: item.options.map((o) => (isLocalizable(o) ? decorate(o, `${path ?? ''}.${o.name}`) : o)) } : {}),
    ...(item.choices ? { choices: item.choices.map((c) => (isLocalizable(c) ? decorate(c, undefined) : c)) } : {}),
  };
}

/** A command definition with Discord localizations for every language in the catalogues. */
export function localizeCommand<T extends Localizable>(definition: T): T {
  return decorate(definition, definition.name);
}

/**
 * A command's, subcommand's or option's name as members of `locale`'s language see it in Discord (its localization,
 * the same one registered with the command); the English name when there is none.
 */
export const localizedCommandName = (locale: string | null | undefined, english: string): string => registered(locale, commandTextKey.name(english), english);

/** A choice's name (`high`, `auto`) as members of `locale`'s language see it; the English word when there is none. */
export const localizedChoiceName = (locale: string | null | undefined, english: string): string => registered(locale, commandTextKey.choice(english), english);

/** The text of a command text's `key` in `locale`'s catalogue, or `english`. */
function registered(locale: string | null | undefined, key: string, english: string): string {
  const catalogue: Catalogue = CATALOGUES[resolveLanguage(locale)];
  return catalogue[key] ?? english;
}
