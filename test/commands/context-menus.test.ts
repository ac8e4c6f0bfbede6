/**
 * The context menus as registered pass what Discord takes (the emulator's bulk-overwrite checks): at most 15 message
 * commands, no options or description, names and their localizations of 1–32 characters, each name once per type.
 */
import { ApplicationCommandType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { commandDefinitions } from '../../src/commands/index.js';
import { COMMAND_TYPE_LIMITS, commandsProblem } from '../emulators/discord/commands.js';

describe('context-menu commands', () => {
  const definitions = commandDefinitions({ enhance: true, describe: true });
  const menus = definitions.filter((d) => d.type === ApplicationCommandType.Message);

  it('are Edit image, Use as style and Describe image, within the message commands Discord holds', () => {
    expect(menus.map((d) => d.name)).toEqual(['Edit image', 'Use as style', 'Describe image']);
    expect(menus.length).toBeLessThanOrEqual(COMMAND_TYPE_LIMITS[ApplicationCommandType.Message] ?? 0);
    expect(commandsProblem(definitions as never)).toBeUndefined();
  });

  it('are localized in every language the bot speaks', () => {
    const style = menus.find((d) => d.name === 'Use as style');
    expect(Object.keys(style?.name_localizations ?? {}).length).toBeGreaterThanOrEqual(9);
    expect(style?.name_localizations).toMatchObject({ de: 'Als Stil verwenden', ja: 'スタイルとして使う', 'zh-TW': '用作風格' });
  });

  it('are refused as Discord refuses them: too many, a description, options, a long name, a duplicate', () => {
    const menu = (name: string, extra: Record<string, unknown> = {}) => ({ type: 3, name, ...extra });
    expect(commandsProblem(Array.from({ length: 15 }, (_, i) => menu(`m${i}`)))).toBeUndefined();
    expect(commandsProblem(Array.from({ length: 16 }, (_, i) => menu(`m${i}`)))).toEqual({ kind: 'count', type: 3, limit: 15 });
    expect(commandsProblem([menu('Use as style', { description: 'x' })])).toMatchObject({ path: ['0', 'description'] });
    expect(commandsProblem([menu('Use as style', { description: '' })])).toBeUndefined();
    expect(commandsProblem([menu('Use as style', { options: [] })])).toMatchObject({ path: ['0', 'options'] });
    expect(commandsProblem([menu('x'.repeat(33))])).toMatchObject({ path: ['0', 'name'] });
    expect(commandsProblem([menu('ok', { name_localizations: { fr: 'y'.repeat(33) } })])).toMatchObject({ path: ['0', 'name_localizations', 'fr'] });
    expect(commandsProblem([menu('Same'), menu('Same')])).toMatchObject({ path: ['1', 'name'] });
    expect(commandsProblem([menu('same'), { type: 1, name: 'same', description: 'd' }])).toBeUndefined();
  });
});
