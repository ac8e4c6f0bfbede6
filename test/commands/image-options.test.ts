import { describe, expect, it } from 'vitest';
import { parseImageOptions } from '../../src/commands/image-options.js';
import { UserFacingError } from '../../src/errors.js';
import type { GenerateRequest } from '../../src/service/ports.js';
import { FakeOptions } from '../fakes/fake-interaction.js';

function parse(values: Record<string, string | number>, prompt = 'a red fox'): GenerateRequest {
  return parseImageOptions(new FakeOptions(values, { name: '', value: '' }), prompt);
}

function failure(values: Record<string, string | number>, prompt?: string): UserFacingError {
  try {
    parse(values, prompt);
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
        size: '1536x1024',
        quality: 'high',
        background: 'opaque',
        outputFormat: 'jpeg',
        outputCompression: 80,
        n: 3,
        moderation: 'low',
      },
    ],
    ['a size in capitals with spaces', { size: ' 1024X1024 ' }, { prompt: 'a red fox', size: '1024x1024' }],
    ['count at the bounds', { count: 10, compression: 0, format: 'webp' }, { prompt: 'a red fox', n: 10, outputCompression: 0, outputFormat: 'webp' }],
  ])('GIVEN %s THEN a typed request', (_name, values, request) => {
    expect(parse(values)).toEqual(request);
  });

  it('trims the prompt', () => {
    expect(parse({}, '  a red fox \n')).toEqual({ prompt: 'a red fox' });
  });

  it.each<[string, Record<string, string | number>, string]>([
    ['count 0', { count: 0 }, 'count'],
    ['count 11', { count: 11 }, 'count'],
    ['compression 101', { compression: 101, format: 'jpeg' }, 'compression'],
    ['compression -1', { compression: -1, format: 'webp' }, 'compression'],
    ['an unknown quality', { quality: 'ultra' }, 'quality'],
    ['an unknown background', { background: 'glass' }, 'background'],
    ['an unknown format', { format: 'gif' }, 'format'],
    ['an unknown moderation', { moderation: 'none' }, 'moderation'],
    ['a blank model', { model: '   ' }, 'model'],
  ])('GIVEN %s THEN input.invalid naming %s', (_name, values, option) => {
    const error = failure(values);
    expect(error.identifier).toBe('input.invalid');
    expect(error.context.param).toBe(option);
    expect(error.context.detail).toEqual(expect.any(String));
  });

  it('refuses a blank prompt, naming the prompt', () => {
    const error = failure({}, '   ');
    expect(error.identifier).toBe('input.invalid');
    expect(error.context.param).toBe('prompt');
    expect(error.context.detail).toBe('the prompt is empty');
  });

  it('refuses a prompt over 6000 characters', () => {
    expect(failure({}, 'x'.repeat(6001)).context.param).toBe('prompt');
  });
});
