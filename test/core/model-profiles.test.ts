import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtInProfileName, ModelProfiles, ProfilesFile } from '../../src/core/model-profiles.js';
import type { Size } from '../../src/core/sizes.js';

const px = (width: number, height: number): Size => ({ width, height });

describe('built-in profiles', () => {
  it.each([
    ['gpt-image-2.6-sunburst', 'gpt-image-2.6'],
    ['gpt-image-2.6-flare', 'gpt-image-2.6'],
    ['gpt-image-2.5', 'gpt-image-2.5'],
    ['gpt-image-2', 'gpt-image-2'],
    ['gpt-image-2-all', 'gpt-image-2'],
    ['openai/gpt-image-2', 'gpt-image-2'],
    ['gpt-image-1', 'gpt-image-1'],
    ['gpt-image-1.5', 'gpt-image-1'],
    ['gpt-image-1-mini', 'gpt-image-1'],
    ['chatgpt-image-latest', 'gpt-image-1'],
    ['dall-e-3', 'dall-e-3'],
    ['DALL-E-2', 'dall-e-2'],
    ['flux-pro', 'generic'],
    ['gpt-image-20', 'generic'],
  ])('gives %s the %s profile', (model, name) => {
    expect(builtInProfileName(model)).toBe(name);
    expect(new ModelProfiles().of(model).source).toBe(name);
  });

  it('knows what each family accepts', () => {
    const of = (model: string) => new ModelProfiles().of(model).profile;
    expect(of('gpt-image-2')).toMatchObject({ backgrounds: ['auto', 'opaque'], qualities: ['auto', 'low', 'medium', 'high'], responseFormat: false });
    expect(of('gpt-image-2').customSizes).toMatchObject({ multiple: 16, maxRatio: 3, maxPixels: 3840 * 2160, experimentalAbovePixels: 2560 * 1440 });
    expect(of('gpt-image-1').customSizes).toBeNull();
    expect(of('gpt-image-2.5').qualities).toEqual(['auto', 'low', 'medium', 'high', 'xhigh', 'max']);
    expect(of('gpt-image-2.6-flare')).toMatchObject({ formats: ['png', 'jpeg', 'webp', 'gif', 'svg'], complexities: ['low', 'medium', 'high'] });
    expect(of('dall-e-3')).toMatchObject({
      sizes: [px(1024, 1024), px(1792, 1024), px(1024, 1792)],
      qualities: ['standard', 'hd'],
      styles: ['vivid', 'natural'],
      maxN: 1,
      edits: null,
      streaming: false,
      responseFormat: true,
      formats: [],
    });
    expect(of('dall-e-2')).toMatchObject({
      sizes: [px(256, 256), px(512, 512), px(1024, 1024)],
      edits: { maxImages: 1, squarePng: true },
      responseFormat: true,
    });
    expect(of('flux-pro')).toMatchObject({ maxN: 10, streaming: true, responseFormat: false });
  });
});

describe("the operator's profiles", () => {
  it('change fields over the built-in profile of the model, and say where the profile came from', () => {
    const profiles = new ModelProfiles({ 'gpt-image-2': { backgrounds: ['auto', 'opaque', 'transparent'] } });
    const { profile, source } = profiles.of('gpt-image-2');
    expect(source).toBe('MODEL_PROFILES_FILE "gpt-image-2"');
    expect(profile.backgrounds).toContain('transparent');
    expect(profile.customSizes).not.toBeNull();
  });

  it('add models by pattern, over the profile they extend; an exact id wins over a pattern', () => {
    const profiles = new ModelProfiles({
      'flux-*': {
        extends: 'dall-e-3',
        sizes: [
          { width: 1024, height: 1024 },
          { width: 768, height: 1344 },
        ],
      },
      'flux-dev': { edits: null, maxN: 2 },
    });
    expect(profiles.of('FLUX-pro').profile).toMatchObject({
      sizes: [
        { width: 1024, height: 1024 },
        { width: 768, height: 1344 },
      ],
      qualities: ['standard', 'hd'],
    });
    expect(profiles.of('flux-dev')).toMatchObject({ source: 'MODEL_PROFILES_FILE "flux-dev"', profile: { maxN: 2, edits: null, streaming: true } });
    expect(profiles.of('sdxl').source).toBe('generic');
  });

  it.each([
    [{ m: { qualities: ['ultra'] } }, ['m', 'qualities', 0]],
    [{ m: { sizes: ['big'] } }, ['m', 'sizes', 0]],
    [{ m: { extends: 'dall-e-4' } }, ['m', 'extends']],
    [{ m: { maxN: 0 } }, ['m', 'maxN']],
    [{ m: { edit: null } }, ['m']],
    [{ m: { edits: { maxImages: 2 } } }, ['m', 'edits', 'mask']],
  ])('refuse %j at %j', (file, path) => {
    const parsed = ProfilesFile.safeParse(file);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(path);
  });
});

describe('profiles the gateway catalogue describes', () => {
  const described = { ...new ModelProfiles().of('anything').profile, maxN: 1, sizes: [{ width: 1376, height: 768 }], edits: null };

  it("stand over the built-in profile, under the operator's file, and keep the built-in prices of a prefixed OpenAI model", () => {
    const profiles = new ModelProfiles({ 'vendor/*': { maxN: 3 }, 'vendor/based': { extends: 'dall-e-3' } });
    profiles.learn(
      new Map([
        ['vendor/image', described],
        ['vendor/based', described],
        ['openai/gpt-image-1', described],
        ['other/image', described],
      ]),
    );
    expect(profiles.of('other/image')).toEqual({ profile: described, source: 'the gateway catalogue' });
    expect(profiles.of('vendor/image')).toMatchObject({
      source: 'MODEL_PROFILES_FILE "vendor/*"',
      profile: { maxN: 3, sizes: [{ width: 1376, height: 768 }] },
    });
    expect(profiles.of('vendor/based').profile.qualities).toEqual(['standard', 'hd']);
    expect(profiles.of('openai/gpt-image-1').profile.prices).toEqual({ inputTextPerMillion: 5, inputImagePerMillion: 10, outputPerMillion: 40 });
  });

  it('are replaced by the next listing', () => {
    const profiles = new ModelProfiles();
    profiles.learn(new Map([['other/image', described]]));
    profiles.learn(new Map());
    expect(profiles.of('other/image').source).toBe('generic');
  });
});

describe("docs/gateways.md's example profile file", () => {
  it('is valid, and does what the text says', () => {
    const readme = readFileSync(new URL('../../docs/gateways.md', import.meta.url), 'utf8');
    const example = /\*\*Your own profiles: `MODEL_PROFILES_FILE`\.\*\*[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1];
    const profiles = new ModelProfiles(ProfilesFile.parse(JSON.parse(example ?? 'null')));
    expect(profiles.of('gpt-image-2').profile.backgrounds).toContain('transparent');
    expect(profiles.of('flux-schnell').profile).toMatchObject({ maxN: 4, customSizes: null, edits: { maxImages: 4, mask: false } });
  });
});
