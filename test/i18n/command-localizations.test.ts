import { ApplicationCommandType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { commandDefinitions } from '../../src/commands/index.js';
import { IMAGINE_DATA } from '../../src/commands/imagine.js';
import { localizeCommand } from '../../src/i18n/command-localizations.js';
import { CATALOGUES, DISCORD_LOCALES } from '../../src/i18n/locales.js';

const { en, de, fr, ja } = CATALOGUES;

interface Node {
  name: string;
  description?: string;
  name_localizations?: Record<string, string>;
  description_localizations?: Record<string, string>;
  options?: Node[];
  choices?: Node[];
}

const LOCALES = Object.values(DISCORD_LOCALES).flat();
/** Choices that are file formats or model-specific terms: the same word in every language. */
const TECHNICAL_CHOICES = new Set(['png', 'jpeg', 'webp', 'gif', 'svg', 'csv', 'hd', 'xhigh', 'max']);
/** Discord's rule for chat-input command and option names (also lowercase where the script has case). */
const NAME_RULE = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

/** Every name, option, subcommand and choice, with its path (`quota.set.period`). */
function walk(node: Node, path: string, visit: (node: Node, path: string, kind: 'item' | 'choice', siblings: Node[]) => void, siblings: Node[] = []): void {
  visit(node, path, 'item', siblings);
  for (const choice of node.choices ?? []) visit(choice, `${path}=${choice.name}`, 'choice', node.choices ?? []);
  for (const option of node.options ?? []) walk(option, `${path}.${option.name}`, visit, node.options ?? []);
}

/** Every command, prompt help's included. */
const definitions = commandDefinitions({ enhance: true, describe: true }) as unknown as (Node & { type?: ApplicationCommandType })[];

describe('command localizations', () => {
  it('localize every command, option and subcommand name and description, and every worded choice, for each language', () => {
    const missing: string[] = [];
    for (const definition of definitions)
      walk(definition, definition.name, (node, path, kind) => {
        if (kind === 'choice' && TECHNICAL_CHOICES.has(node.name)) return;
        for (const locale of LOCALES) {
          if (!node.name_localizations?.[locale]) missing.push(`${path} name ${locale}`);
          if (node.description && !node.description_localizations?.[locale]) missing.push(`${path} description ${locale}`);
        }
      });
    expect(missing).toEqual([]);
  });

  it('keep the English names and descriptions as the base', () => {
    const imagine = definitions.find((d) => d.name === 'imagine');
    expect(imagine?.description).toBe('Turn a prompt into images');
    expect(imagine?.options?.map((o) => o.name)).toContain('prompt');
    expect(imagine?.name_localizations?.['ja']).toBe('画像生成');
    expect(imagine?.name_localizations?.['es-419']).toBe(imagine?.name_localizations?.['es-ES']);
  });

  it('follow Discord’s naming rules: lowercase names of 1–32 letters, digits, - _ and apostrophes, unique among siblings', () => {
    const broken: string[] = [];
    for (const definition of definitions) {
      const chatInput = (definition.type ?? ApplicationCommandType.ChatInput) === ApplicationCommandType.ChatInput;
      walk(definition, definition.name, (node, path, kind, siblings) => {
        for (const [locale, name] of Object.entries(node.name_localizations ?? {})) {
          if (kind === 'item' && chatInput && (!NAME_RULE.test(name) || name !== name.toLocaleLowerCase(locale))) broken.push(`${path} ${locale}: ${name}`);
          if (name.length > (kind === 'choice' ? 100 : 32)) broken.push(`${path} ${locale}: too long`);
          const same = siblings.filter((s) => s !== node && (s.name_localizations?.[locale] ?? s.name) === name);
          if (same.length > 0) broken.push(`${path} ${locale}: ${name} is also a sibling's name`);
        }
        for (const [locale, text] of Object.entries(node.description_localizations ?? {}))
          if (text.length > 100) broken.push(`${path} ${locale}: description too long`);
      });
    }
    expect(broken).toEqual([]);
  });

  it('key descriptions by where they are, so an edited English description keeps its translations', () => {
    const imagine = definitions.find((d) => d.name === 'imagine')!;
    expect(imagine.options?.find((o) => o.name === 'prompt')?.description_localizations?.['de']).toBe(de['command.description.imagine.prompt']);
    const describes = definitions
      .find((d) => d.name === 'settings')
      ?.options?.find((o) => o.name === 'prompt-help')
      ?.options?.find((o) => o.name === 'describes');
    expect(describes?.description_localizations?.['ja']).toBe(ja['command.description.settings.prompt-help.describes']);
    expect(Object.keys(en).filter((key) => key.startsWith('command.description.') && key.includes(' '))).toEqual([]);
    const edited: Node = localizeCommand({ ...IMAGINE_DATA, description: 'Make pictures from words' });
    expect(edited.description_localizations?.['fr']).toBe(fr['command.description.imagine']);
  });
});
