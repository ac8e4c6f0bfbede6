import { describe, expect, it } from 'vitest';
import { FIDELITY_OPTION, IMAGE_OPTIONS, parseEditOptions, parseImageOptions, PROMPT_OPTION } from '../../src/commands/image-options.js';
import { readOptions } from '../../src/commands/option-reader.js';
import { optionNameOf } from '../../src/commands/option-names.js';
import { describeUserError, UserFacingError } from '../../src/errors.js';
import type { GenerateRequest } from '../../src/core/images.js';
import { FakeOptions } from '../fakes/fake-interaction.js';
import { english } from '../support/phrases.js';

function parse(values: Record<string, string | number>, prompt = 'a red fox'): GenerateRequest {
  return parseImageOptions(readOptions(new FakeOptions(values, { name: '', value: '' }), IMAGE_OPTIONS), prompt);
}

function failure(values: Record<string, string | number>, prompt?: string, read: () => unknown = () => parse(values, prompt)): UserFacingError {
  try {
    read();
  } catch (err) {
    if (err instanceof UserFacingError) return err;
    throw err;
  }
  throw new Error('expected a UserFacingError');
}

describe('parseImageOptions', () => {
  it.each<[string, Record<string, string | number>, GenerateRequest]>([
    ['no options', {}, { prompt: 'a red fox' }],
    [
      'every option',
      { model: 'gpt-image-1', size: '1536x1024', quality: 'high', background: 'opaque', format: 'jpeg', compression: 80, count: 3, moderation: 'low' },
      {
        prompt: 'a red fox',
        model: 'gpt-image-1',
        size: { width: 1536, height: 1024 },
        quality: 'high',
        background: 'opaque',
        outputFormat: 'jpeg',
        outputCompression: 80,
        n: 3,
        moderation: 'low',
      },
    ],
    ['a size in capitals with spaces', { size: ' 1024X1024 ' }, { prompt: 'a red fox', size: { width: 1024, height: 1024 } }],
    ['count at the bounds', { count: 10, compression: 0, format: 'webp' }, { prompt: 'a red fox', n: 10, outputCompression: 0, outputFormat: 'webp' }],
  ])('GIVEN %s THEN a typed request', (_name, values, request) => {
    expect(parse(values)).toEqual(request);
  });

  it('trims the prompt', () => {
    expect(parse({}, '  a red fox \n')).toEqual({ prompt: 'a red fox' });
  });

  it.each<[string, Record<string, string | number>, string, string]>([
    ['count 0', { count: 0 }, 'n', 'count'],
    ['count 11', { count: 11 }, 'n', 'count'],
    ['compression 101', { compression: 101, format: 'jpeg' }, 'outputCompression', 'compression'],
    ['compression -1', { compression: -1, format: 'webp' }, 'outputCompression', 'compression'],
    ['an unknown quality', { quality: 'ultra' }, 'quality', 'quality'],
    ['an unknown background', { background: 'glass' }, 'background', 'background'],
    ['an unknown format', { format: 'bmp' }, 'outputFormat', 'format'],
    ['an unknown moderation', { moderation: 'none' }, 'moderation', 'moderation'],
    ['a blank model', { model: '   ' }, 'model', 'model'],
  ])('GIVEN %s THEN input.invalid naming the field %s, shown as the option %s', (_name, values, field, option) => {
    const error = failure(values);
    expect(error.identifier).toBe('input.invalid');
    expect(error.context.param).toBe(field);
    expect(english(error.context.detail)).toEqual(expect.any(String));
    expect(describeUserError(error, 'ref', optionNameOf)).toMatch(new RegExp(`^That ${option} doesn't work: `));
  });

  it('refuses a blank prompt, naming the prompt', () => {
    const error = failure({}, '   ');
    expect(error.identifier).toBe('input.invalid');
    expect(error.context.param).toBe('prompt');
    expect(english(error.context.detail)).toBe('the prompt is empty');
  });

  it("leaves Discord's 6000-character cap to Discord (the registered max_length) and applies the service's prompt rule", () => {
    expect(PROMPT_OPTION.max_length).toBe(6000);
    expect(parse({}, 'x'.repeat(32_000)).prompt).toHaveLength(32_000);
    const error = failure({}, 'x'.repeat(32_001));
    expect(error.context.param).toBe('prompt');
    expect(english(error.context.detail)).toBe('the prompt is longer than 32,000 characters');
  });
});

describe('parseEditOptions', () => {
  it('reads the fidelity option into the edit field', () => {
    const read = (values: Record<string, string | number>) =>
      parseEditOptions(readOptions(new FakeOptions(values, { name: '', value: '' }), [FIDELITY_OPTION]));
    expect(read({})).toEqual({});
    expect(read({ fidelity: 'high' })).toEqual({ inputFidelity: 'high' });
    const error = failure({}, undefined, () => read({ fidelity: 'max' }));
    expect(error.context.param).toBe('inputFidelity');
    expect(describeUserError(error, 'ref', optionNameOf)).toMatch(/^That fidelity doesn't work: /);
  });
});

describe('the registered image options', () => {
  it("offer the service's value lists as choices where no model changes them", () => {
    const choicesOf = (name: string) => IMAGE_OPTIONS.find((o) => o.name === name && 'choices' in o);
    expect(choicesOf('moderation')).toMatchObject({ choices: ['auto', 'low'].map((v) => ({ name: v, value: v })) });
  });

  it.each(['model', 'size', 'quality', 'background', 'format', 'style', 'complexity'])('offer %s by autocomplete, since what a model takes differs', (name) => {
    const option = IMAGE_OPTIONS.find((o) => o.name === name);
    expect(option).toMatchObject({ autocomplete: true });
    expect(option).not.toHaveProperty('choices');
  });
});
