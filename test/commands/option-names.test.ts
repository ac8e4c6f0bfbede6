import { describe, expect, it } from 'vitest';
import { EDIT_DATA } from '../../src/commands/edit.js';
import { IMAGE_OPTIONS, PROMPT_OPTION } from '../../src/commands/image-options.js';
import { OPTION_NAMES, optionNameOf } from '../../src/commands/option-names.js';
import { WIRE_NAMES } from '../../src/core/image-request.js';

describe('option names', () => {
  it.each([
    ['outputFormat', 'format'],
    ['outputCompression', 'compression'],
    ['n', 'count'],
    ['inputFidelity', 'fidelity'],
    ['images', 'image'],
    ['prompt', 'prompt'],
  ])('words the field %s as the option %s', (field, option) => {
    expect(optionNameOf(field)).toBe(option);
  });

  it('leaves a name that is no request field as it is', () => {
    expect(optionNameOf('partial_images')).toBe('partial_images');
    expect(optionNameOf('user/role')).toBe('user/role');
    expect(optionNameOf('constructor')).toBe('constructor');
  });

  it('names every request field, and every name is an option /edit registers', () => {
    expect(Object.keys(OPTION_NAMES).sort()).toEqual(Object.keys(WIRE_NAMES).sort());
    const registered = EDIT_DATA.options.map((o) => o.name);
    for (const option of Object.values(OPTION_NAMES)) expect(registered).toContain(option);
    expect([PROMPT_OPTION, ...IMAGE_OPTIONS].map((o) => o.name)).toEqual([
      'prompt',
      'model',
      'size',
      'ratio',
      'resolution',
      'quality',
      'background',
      'format',
      'compression',
      'count',
      'moderation',
      'style',
      'complexity',
      'seed',
    ]);
  });
});
