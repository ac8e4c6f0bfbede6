import { describe, expect, it } from 'vitest';
import { ImageInputError } from '../../src/core/image-rules.js';
import { ModelProfiles } from '../../src/core/model-profiles.js';
import type { GenerateRequest } from '../../src/core/images.js';
import { checkAgainstProfile, type DeclaredEdit } from '../../src/core/profile-rules.js';
import { inEnglish } from '../support/phrases.js';

const profiles = new ModelProfiles();

/** The refusal, its phrases in English; undefined when the model takes the request. */
function refusal(model: string, request: Partial<GenerateRequest>, edit?: DeclaredEdit): ReturnType<typeof inEnglish> | undefined {
  try {
    checkAgainstProfile({ prompt: 'a lighthouse', ...request }, model, profiles.of(model).profile, edit);
  } catch (err) {
    if (err instanceof ImageInputError) return inEnglish(err);
    throw err;
  }
  return undefined;
}

const png = { size: 1000, contentType: 'image/png', width: 512, height: 512 };

describe('checkAgainstProfile', () => {
  it.each<[string, Partial<GenerateRequest>, string, string, string]>([
    ['gpt-image-2', { quality: 'xhigh' }, 'quality', 'auto, low, medium, high', "gpt-image-2 doesn't offer xhigh"],
    ['gpt-image-1', { quality: 'hd' }, 'quality', 'auto, low, medium, high', "gpt-image-1 doesn't offer hd"],
    ['dall-e-3', { quality: 'high' }, 'quality', 'standard, hd', "dall-e-3 doesn't offer high"],
    ['dall-e-2', { quality: 'hd' }, 'quality', 'leave it out', 'dall-e-2 has no quality setting'],
    ['dall-e-3', { n: 2 }, 'n', '1', 'dall-e-3 makes at most 1 image per request'],
    ['dall-e-3', { size: { width: 1536, height: 1024 } }, 'size', '1024x1024, 1792x1024, 1024x1792', 'dall-e-3 takes only its listed sizes'],
    ['dall-e-2', { size: { width: 1792, height: 1024 } }, 'size', '256x256, 512x512, 1024x1024', 'dall-e-2 takes only its listed sizes'],
    ['gpt-image-1', { size: { width: 2048, height: 1152 } }, 'size', 'auto, 1024x1024, 1536x1024, 1024x1536', 'gpt-image-1 takes only its listed sizes'],
    ['gpt-image-2', { background: 'transparent', outputFormat: 'png' }, 'background', 'auto, opaque', "gpt-image-2 can't make transparent backgrounds"],
    ['gpt-image-2', { outputFormat: 'svg' }, 'output_format', 'png, jpeg, webp', "gpt-image-2 doesn't make SVG"],
    ['dall-e-3', { outputFormat: 'webp' }, 'output_format', 'png', "dall-e-3 doesn't make WEBP"],
    ['dall-e-3', { outputFormat: 'jpeg', outputCompression: 50 }, 'output_format', 'png', "dall-e-3 doesn't make JPEG"],
    ['dall-e-3', { moderation: 'low' }, 'moderation', 'auto', 'dall-e-3 has no moderation setting'],
    ['gpt-image-2', { style: 'vivid' }, 'style', 'leave it out', 'gpt-image-2 has no style setting'],
    ['gpt-image-2.5', { complexity: 'high' }, 'complexity', 'leave it out', 'gpt-image-2.5 has no complexity setting'],
    ['dall-e-2', { prompt: 'x'.repeat(1001) }, 'prompt', 'at most 1,000 characters', 'dall-e-2 takes shorter prompts'],
  ])('refuses for %s %j, naming %s and what the model takes', (model, request, param, allowed, detail) => {
    expect(refusal(model, request)).toMatchObject({ param, allowed, detail });
  });

  it('refuses a custom size outside the rule of a model that takes custom sizes, naming the rule', () => {
    expect(refusal('gpt-image-2', { size: { width: 3840, height: 1024 } })).toMatchObject({ param: 'size', detail: "gpt-image-2 can't make 3840x1024" });
    expect(refusal('gpt-image-2', { size: { width: 3840, height: 1024 } })?.allowed).toContain('the long side may be at most 3× the short side');
  });

  it.each<[string, Partial<GenerateRequest>]>([
    ['gpt-image-2.5', { quality: 'xhigh' }],
    ['gpt-image-2.6-flare', { quality: 'max', outputFormat: 'svg', complexity: 'high', background: 'transparent' }],
    ['gpt-image-2', { size: { width: 3840, height: 2160 } }],
    ['gpt-image-2', { quality: 'auto', background: 'auto', size: 'auto' }],
    ['dall-e-3', { quality: 'hd', style: 'natural', size: { width: 1792, height: 1024 }, outputFormat: 'png', n: 1 }],
    ['dall-e-3', { quality: 'auto', size: 'auto', moderation: 'auto' }],
    ['dall-e-2', { size: { width: 512, height: 512 }, n: 4 }],
    ['flux-pro', { quality: 'xhigh', style: 'vivid', complexity: 'low', outputFormat: 'gif', size: { width: 2048, height: 1152 } }],
  ])('accepts for %s %j', (model, request) => {
    expect(refusal(model, request)).toBeUndefined();
  });

  describe('seeds', () => {
    const withSeeds = new ModelProfiles({ 'flux-*': { seeds: true } });
    const check = (model: string, profileSet: ModelProfiles) => () =>
      checkAgainstProfile({ prompt: 'a lighthouse', seed: 42 }, model, profileSet.of(model).profile);

    it.each(['gpt-image-1', 'gpt-image-2.6-flare', 'dall-e-3', 'dall-e-2', 'flux-pro'])('refuses a seed for %s, whose profile has none', (model) => {
      expect(refusal(model, { seed: 42 })).toMatchObject({ param: 'seed', allowed: 'leave it out', detail: `${model} takes no seed` });
    });

    it('takes a seed where the profile file turns seeds on, and keeps files without the field valid', () => {
      expect(check('flux-pro', withSeeds)).not.toThrow();
      expect(check('flux-pro', new ModelProfiles({ 'flux-*': { maxN: 4 } }))).toThrow(ImageInputError);
      expect(check('gpt-image-2', withSeeds)).toThrow(ImageInputError);
      expect(refusal('gpt-image-2', {})).toBeUndefined();
    });
  });

  it("refuses edits the model can't make, before anything is fetched", () => {
    expect(refusal('dall-e-3', {}, { images: [png] })).toMatchObject({ param: 'image', detail: "dall-e-3 can't edit images" });
    expect(refusal('dall-e-2', {}, { images: [png, png] })).toMatchObject({ param: 'image', allowed: '1 to 1 image' });
    expect(refusal('dall-e-2', {}, { images: [{ ...png, contentType: 'image/jpeg' }] })).toMatchObject({ param: 'image', allowed: 'one square PNG image' });
    expect(refusal('dall-e-2', {}, { images: [{ ...png, width: 512, height: 256 }] })).toMatchObject({ detail: 'dall-e-2 edits square PNGs only' });
    expect(refusal('dall-e-2', {}, { images: [png], inputFidelity: 'high' })).toMatchObject({ param: 'input_fidelity' });
    expect(refusal('dall-e-2', {}, { images: [png], mask: png })).toBeUndefined();
    expect(refusal('gpt-image-2', {}, { images: Array.from({ length: 16 }, () => png), mask: png, inputFidelity: 'high' })).toBeUndefined();
  });
});
