import { describe, expect, it } from 'vitest';
import { PresetName, StylePreset, parsePresetImageUrl, presetImageUrl, presetOwner, referencePrompt } from '../../src/core/style-presets.js';

describe('the reference prompt', () => {
  it('names the style reference first, then the subject, then the member prompt', () => {
    expect(referencePrompt('a cat', { style: true, subject: true, presetImages: 0 })).toBe(
      'Image 1 is the style reference: use its style, palette and rendering, not its content. ' +
        'Image 2 is the subject reference: keep this subject recognisable.\na cat',
    );
  });

  it("numbers a preset's images after the member's own and the references, and ends with the suffix", () => {
    const prompt = referencePrompt('restyle', { style: false, subject: true, presetImages: 2, ownImages: 1 }, '  in ink  ');
    expect(prompt).toBe(
      'Image 2 is the subject reference: keep this subject recognisable. ' +
        'Images 3 to 4 are style references: use their style, palette and rendering, not their content.\nrestyle\nin ink',
    );
    expect(referencePrompt('x', { style: false, subject: false, presetImages: 1 })).toMatch(/^Image 1 is a style reference: use its style/);
  });

  it('leaves a prompt without references as written (with the suffix)', () => {
    expect(referencePrompt('a dog', { style: false, subject: false, presetImages: 0 })).toBe('a dog');
    expect(referencePrompt('a dog', { style: false, subject: false, presetImages: 0 }, 'oil paint')).toBe('a dog\noil paint');
  });
});

describe('preset names, records and image addresses', () => {
  it('takes 1-32 of a-z, 0-9, space, - and _, lower-cased', () => {
    expect(PresetName.parse('  Ink Wash_2 ')).toBe('ink wash_2');
    for (const bad of ['', 'a/b', 'x'.repeat(33), '<@1>', 'é']) expect(PresetName.safeParse(bad).success).toBe(false);
  });

  it('bounds a record: three images of at most 200 KB and a suffix of 200 characters', () => {
    const image = { data: 'AAAA', filename: 'a.webp', width: 8, height: 8 };
    const preset = { name: 'a', suffix: '', images: [image], savedBy: '1', savedAt: 0 };
    expect(StylePreset.safeParse(preset).success).toBe(true);
    expect(StylePreset.safeParse({ ...preset, images: [image, image, image, image] }).success).toBe(false);
    expect(StylePreset.safeParse({ ...preset, suffix: 'x'.repeat(201) }).success).toBe(false);
    expect(StylePreset.safeParse({ ...preset, images: [{ ...image, data: 'A'.repeat(280_000) }] }).success).toBe(false);
  });

  it('addresses a preset image with a scheme no Discord attachment has, and reads it back', () => {
    const owner = presetOwner('member', '123', '456');
    const url = presetImageUrl(owner, 'ink wash', 2);
    expect(url).toBe('preset:m:123:456/ink wash/2');
    expect(parsePresetImageUrl(url)).toEqual({ owner, name: 'ink wash', index: 2 });
    expect(parsePresetImageUrl(presetImageUrl(presetOwner('server', null, '9'), 'x', 0))).toEqual({ owner: 's:dm', name: 'x', index: 0 });
    for (const other of ['https://cdn.discordapp.com/a.png', 'preset:m:1:2/../x/0', 'preset:q:1/x/0']) expect(parsePresetImageUrl(other)).toBeUndefined();
  });
});
