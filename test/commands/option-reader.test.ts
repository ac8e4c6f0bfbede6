import { describe, expect, expectTypeOf, it } from 'vitest';
import { UserFacingError } from '../../src/errors.js';
import { IMAGINE_DATA } from '../../src/commands/imagine.js';
import { readOptions, readSubcommand, subcommandOf } from '../../src/commands/option-reader.js';
import { SETTINGS_DATA } from '../../src/commands/settings-data.js';
import { FakeOptions } from '../fakes/fake-interaction.js';

const NOTHING_FOCUSED = { name: '', value: '' };

/** Fake options with a subcommand chosen. */
class SubcommandOptions extends FakeOptions {
  readonly #subcommand: string;
  constructor(subcommand: string, values: Record<string, string | number> = {}) {
    super(values, NOTHING_FOCUSED);
    this.#subcommand = subcommand;
  }
  override getSubcommand(): string {
    return this.#subcommand;
  }
}

describe('the option reader', () => {
  it("reads an option by its definition's name: a required one as its value, an optional one as undefined when not given", () => {
    const read = readOptions(new FakeOptions({ prompt: 'a red fox', count: 2 }, NOTHING_FOCUSED), IMAGINE_DATA.options);
    expect(read.string('prompt')).toBe('a red fox');
    expect(read.integer('count')).toBe(2);
    expect(read.string('model')).toBeUndefined();
    expectTypeOf(read.string('prompt')).toEqualTypeOf<string>();
    expectTypeOf(read.string('model')).toEqualTypeOf<string | undefined>();
  });

  it('asks discord.js for a required option as required, so a missing one throws', () => {
    const read = readOptions(new FakeOptions({}, NOTHING_FOCUSED), IMAGINE_DATA.options);
    expect(() => read.string('prompt')).toThrow(/required option prompt missing/);
  });

  it('reads only the names and types the definition has (a renamed option does not compile)', () => {
    const read = readOptions(new FakeOptions({}, NOTHING_FOCUSED), IMAGINE_DATA.options);
    // @ts-expect-error: /imagine has no option `promt`
    expect(read.string('promt')).toBeUndefined();
    // @ts-expect-error: `count` is an integer option, not a string one
    expect(read.string('count')).toBeUndefined();
  });

  it('names the chosen subcommand and reads its own options, typed by its choices', () => {
    const options = new SubcommandOptions('nsfw', { mode: 'roles' });
    const sub = subcommandOf(options, SETTINGS_DATA);
    expect(sub).toBe('nsfw');
    const read = readSubcommand(options, SETTINGS_DATA, 'nsfw');
    expect(read.string('mode')).toBe('roles');
    expectTypeOf(read.string('mode')).toEqualTypeOf<'nowhere' | 'age-restricted' | 'roles'>();
    // @ts-expect-error: `/settings nsfw` has no `usd` option (that is confirm-cost's)
    expect(read.number('usd')).toBeUndefined();
  });

  it('refuses a subcommand the definition does not have as invalid input', () => {
    let error: unknown;
    try {
      subcommandOf(new SubcommandOptions('panel'), SETTINGS_DATA);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UserFacingError);
    expect((error as UserFacingError).identifier).toBe('input.invalid');
    expect((error as UserFacingError).context.param).toBe('subcommand');
  });
});
