import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  EditFields,
  fieldOfWireName,
  GenerateRequest,
  type IMAGE_FORMATS,
  type INPUT_FIDELITIES,
  MAX_PROMPT_LENGTH,
  Prompt,
  WIRE_NAMES,
  type RequestField,
} from '../../src/core/image-request.js';
import type { EditRequest, ImageFormat, InputFidelity } from '../../src/core/images.js';

describe('the prompt rule', () => {
  it('trims the prompt', () => {
    expect(Prompt.parse('  a red fox \n')).toBe('a red fox');
  });

  // A refusal names its phrase (and the phrase's values), which the commands show in the member's language.
  it.each(['', '   ', '\n\t'])('refuses the blank prompt %j as empty', (prompt) => {
    const result = Prompt.safeParse(prompt);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('detail.prompt.empty');
  });

  it('counts code points: 32,000 emoji pass, one more character does not', () => {
    expect(MAX_PROMPT_LENGTH).toBe(32_000);
    expect(Prompt.parse('😀'.repeat(32_000))).toHaveLength(64_000);
    const result = Prompt.safeParse('😀'.repeat(32_000) + 'x');
    expect(result.error?.issues[0]).toMatchObject({ message: 'detail.prompt.tooLong', params: { max: 32_000 } });
  });
});

describe('GenerateRequest', () => {
  it('takes a prompt alone, and every field at once', () => {
    expect(GenerateRequest.parse({ prompt: 'p' })).toEqual({ prompt: 'p' });
    const full = {
      prompt: 'p',
      model: 'gpt-image-1',
      size: '1536x1024',
      quality: 'high',
      background: 'opaque',
      outputFormat: 'webp',
      outputCompression: 70,
      n: 10,
      moderation: 'low',
    };
    expect(GenerateRequest.parse(full)).toEqual({ ...full, size: { width: 1536, height: 1024 } });
    // A size read once stays read: a stored request of this version parses to itself.
    expect(GenerateRequest.parse(GenerateRequest.parse(full))).toEqual(GenerateRequest.parse(full));
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an unknown quality', { quality: 'ultra' }, 'quality'],
    ['a bmp', { outputFormat: 'bmp' }, 'outputFormat'],
    ['compression of 101', { outputCompression: 101 }, 'outputCompression'],
    ['n of 11', { n: 11 }, 'n'],
    ['a blank model', { model: ' ' }, 'model'],
    ['a size that is not WIDTHxHEIGHT', { size: 'big' }, 'size'],
    ['a size of the wrong shape', { size: { width: '1024', height: 1024 } }, 'size'],
  ])('refuses %s, naming the field', (_name, fields, field) => {
    expect(GenerateRequest.safeParse({ prompt: 'p', ...fields }).error?.issues[0]?.path).toEqual([field]);
  });

  it('takes an edit fidelity only from the list', () => {
    expect(EditFields.parse({ inputFidelity: 'high' })).toEqual({ inputFidelity: 'high' });
    expect(EditFields.safeParse({ inputFidelity: 'max' }).success).toBe(false);
  });

  it('gives the ports their types', () => {
    expectTypeOf<ImageFormat>().toEqualTypeOf<(typeof IMAGE_FORMATS)[number]>();
    expectTypeOf<InputFidelity>().toEqualTypeOf<(typeof INPUT_FIDELITIES)[number]>();
    expectTypeOf<EditRequest['quality']>().toEqualTypeOf<'auto' | 'low' | 'medium' | 'high' | 'xhigh' | 'max' | 'standard' | 'hd' | undefined>();
    expectTypeOf<keyof EditRequest>().toEqualTypeOf<RequestField>();
  });
});

describe('wire names', () => {
  it.each<[RequestField, string]>([
    ['outputFormat', 'output_format'],
    ['outputCompression', 'output_compression'],
    ['inputFidelity', 'input_fidelity'],
    ['n', 'n'],
    ['images', 'image'],
  ])('sends %s as %s, and reads it back', (field, wire) => {
    expect(WIRE_NAMES[field]).toBe(wire);
    expect(fieldOfWireName(wire)).toBe(field);
  });

  it('reads back every wire name, and no name that is no field', () => {
    for (const [field, wire] of Object.entries(WIRE_NAMES)) expect(fieldOfWireName(wire)).toBe(field);
    expect(fieldOfWireName('partial_images')).toBeUndefined();
    expect(fieldOfWireName('outputFormat')).toBeUndefined();
    expect(fieldOfWireName('constructor')).toBeUndefined();
  });
});
