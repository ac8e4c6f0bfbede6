/**
 * Messages that name a command (`/quota reset`), an option (`model`) or an option with a value (`moderation:low`)
 * name them as the member's Discord shows them: with the names registered for that language (the catalogue's own
 * `command.name.*` and `command.choice.*` entries). A translation left with the English name, or a reference to a
 * command that does not exist, fails here.
 */
import { describe, expect, it } from 'vitest';
import { commandDefinitions } from '../../src/commands/index.js';
import { CATALOGUES, LANGUAGES, type Catalogue, type Language } from '../../src/i18n/locales.js';

interface Node {
  name: string;
  type?: number;
  options?: Node[];
}

const definitions = commandDefinitions({ enhance: true, describe: true }) as unknown as Node[];
/** Subcommands and groups are option types 1 and 2. */
const isSubcommand = (node: Node) => node.type === 1 || node.type === 2;

/** Every `/command [group] [subcommand]` path, as English words. */
function commandPaths(): string[][] {
  const paths: string[][] = [];
  const walk = (node: Node, path: string[]) => {
    paths.push(path);
    for (const sub of (node.options ?? []).filter(isSubcommand)) walk(sub, [...path, sub.name]);
  };
  for (const definition of definitions.filter((d) => d.type === undefined || d.type === 1)) walk(definition, [definition.name]);
  return paths;
}

/** Every option name (not subcommands), in English. */
function optionNames(): Set<string> {
  const names = new Set<string>();
  const walk = (node: Node) => {
    for (const option of node.options ?? []) {
      if (!isSubcommand(option)) names.add(option.name);
      walk(option);
    }
  };
  definitions.forEach(walk);
  return names;
}

const PATHS = commandPaths();
const OPTIONS = optionNames();

/** The words of a language for commands, options and choices; English words where it has none. */
function vocabulary(language: Language) {
  const catalogue: Catalogue = CATALOGUES[language];
  const name = (english: string) => catalogue[`command.name.${english}`] ?? english;
  const choice = (english: string) => catalogue[`command.choice.${english}`] ?? english;
  return {
    commands: new Set(PATHS.map((path) => `/${path.map(name).join(' ')}`)),
    options: new Map([...OPTIONS].map((option) => [name(option), option])),
    choice,
    name,
  };
}

/** The references in a message: its code spans, placeholders left out. */
const spansOf = (message: string): string[] => [...message.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '').filter((span) => !span.includes('{'));

/** Each reference in `language`'s messages that does not name what its members see. */
function wrongReferences(language: Language): string[] {
  const words = vocabulary(language);
  const catalogue: Catalogue = CATALOGUES[language];
  const wrong: string[] = [];
  for (const [key, message] of Object.entries(catalogue)) {
    if (key.startsWith('command.')) continue;
    for (const span of spansOf(message)) {
      const optionValue = /^([^\s:]+):(\S+)$/.exec(span);
      if (span.startsWith('/')) {
        if (!words.commands.has(span)) wrong.push(`${key}: ${span}`);
      } else if (optionValue) {
        const english = words.options.get(optionValue[1] ?? '');
        if (english === undefined) wrong.push(`${key}: ${span} (no such option)`);
      } else if (OPTIONS.has(span) && words.name(span) !== span) {
        // An English option name where the language has its own.
        wrong.push(`${key}: ${span} (shown as ${words.name(span)})`);
      }
    }
  }
  return wrong;
}

describe('commands and options named in messages', () => {
  it('the check sees an English reference left in a translation, and a command that does not exist', () => {
    const ja = vocabulary('ja');
    expect(ja.commands.has('/quota reset')).toBe(false);
    expect(ja.commands.has(`/${ja.name('quota')} ${ja.name('reset')}`)).toBe(true);
    expect(vocabulary('en').commands.has('/quota rest')).toBe(false);
    expect(ja.options.has('model')).toBe(false);
  });

  it.each(LANGUAGES)('%s names them as its members see them in Discord', (language) => {
    expect(wrongReferences(language)).toEqual([]);
  });

  it.each(LANGUAGES)('%s writes a command it names as code, where the check above can see it', (language) => {
    // Command names in English and in the language; a word may run on into the text (Korean particles: `/편집의`).
    const names = [...new Set(PATHS.flatMap((path) => [path[0] ?? '', vocabulary(language).name(path[0] ?? '')]))];
    const bare = Object.entries(CATALOGUES[language] as Catalogue)
      .filter(([key]) => !key.startsWith('command.'))
      .flatMap(([key, message]) =>
        [...message.replace(/`[^`]*`/g, '').matchAll(/(?<![\p{L}\p{N}<:/])\/([\p{L}\p{N}_-]+)/gu)]
          .filter((m) => names.some((name) => (m[1] ?? '').startsWith(name)))
          .map((m) => `${key}: ${m[0]}`),
      );
    expect(bare).toEqual([]);
  });

  it.each(LANGUAGES)('%s names an option’s value by its localized choice', (language) => {
    const words = vocabulary(language);
    const wrong: string[] = [];
    const catalogue: Catalogue = CATALOGUES[language];
    for (const [key, message] of Object.entries(catalogue))
      for (const span of spansOf(message)) {
        const match = /^([^\s:/]+):(\S+)$/.exec(span);
        if (!match) continue;
        const english = words.options.get(match[1] ?? '');
        const englishValue = ['low', 'high', 'medium', 'auto'].find((v) => words.choice(v) === match[2] || v === match[2]);
        if (english !== undefined && englishValue !== undefined && match[2] !== words.choice(englishValue)) wrong.push(`${key}: ${span}`);
      }
    expect(wrong).toEqual([]);
  });
});
