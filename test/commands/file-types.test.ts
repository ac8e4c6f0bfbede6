import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { commandDefinitions } from '../../src/commands/index.js';
import { fileTypesProblem } from '../emulators/discord/commands.js';

interface Option {
  type: ApplicationCommandOptionType;
  name: string;
  file_types?: unknown;
  options?: Option[];
}

/** Every option of a definition, subcommands' included. */
const optionsOf = (options: readonly Option[] = []): Option[] => options.flatMap((option) => [option, ...optionsOf(option.options)]);

describe('attachment options', () => {
  const definitions = commandDefinitions({ enhance: true, describe: true });
  const attachments = definitions.flatMap((d) =>
    optionsOf('options' in d ? d.options : [])
      .filter((o) => o.type === ApplicationCommandOptionType.Attachment)
      .map((o) => `${d.name}.${o.name}`),
  );

  it('declare file_types image on every command, so clients offer only images', () => {
    expect(attachments.length).toBeGreaterThanOrEqual(11);
    for (const definition of definitions) {
      for (const option of optionsOf('options' in definition ? definition.options : [])) {
        if (option.type === ApplicationCommandOptionType.Attachment)
          expect([definition.name, option.name, option.file_types]).toEqual([definition.name, option.name, ['image']]);
      }
    }
  });

  it('pass the emulator as Discord takes them, which refuses more than 10 entries or an entry that is no group or extension', () => {
    expect(fileTypesProblem(definitions as never)).toBeUndefined();
    const command = (fileTypes: unknown) => [{ name: 'c', options: [{ type: 11, name: 'f', description: 'd', file_types: fileTypes }] }];
    expect(fileTypesProblem(command(['image', '.png', 'video', 'audio']))).toBeUndefined();
    expect(fileTypesProblem(command(['pictures']))).toEqual(['0', 'options', '0', 'file_types']);
    expect(fileTypesProblem(command(Array.from({ length: 11 }, (_, i) => `.x${i}`)))).toEqual(['0', 'options', '0', 'file_types']);
    expect(fileTypesProblem([{ name: 'c', options: [{ type: 3, name: 's', description: 'd', file_types: ['image'] }] }])).toEqual([
      '0',
      'options',
      '0',
      'file_types',
    ]);
  });
});
