import { describe, expect, it } from 'vitest';
import { buildWireParams, wireValue } from '../../src/gateway/params.js';
import { ModelProfiles } from '../../src/core/model-profiles.js';
import type { GenerateRequest } from '../../src/core/images.js';

const profiles = new ModelProfiles();
const wire = (model: string, request: Partial<GenerateRequest>, stream = true) =>
  Object.fromEntries(
    [...buildWireParams({ prompt: 'a fox', ...request }, model, { stream, partialImages: 1 }, profiles.of(model).profile)].map(([name, value]) => [
      name,
      wireValue(value),
    ]),
  );

describe('buildWireParams: a request carries only what its model accepts', () => {
  it('asks dall-e-3 for base64, leaves out auto and what it has no parameter for, and never streams', () => {
    expect(wire('dall-e-3', { quality: 'auto', size: 'auto', background: 'auto', moderation: 'auto', outputFormat: 'png', n: 1 })).toEqual({
      model: 'dall-e-3',
      prompt: 'a fox',
      response_format: 'b64_json',
    });
    expect(wire('dall-e-3', { quality: 'hd', size: { width: 1792, height: 1024 }, style: 'natural' })).toEqual({
      model: 'dall-e-3',
      prompt: 'a fox',
      size: '1792x1024',
      quality: 'hd',
      style: 'natural',
      response_format: 'b64_json',
    });
  });

  it('sends GPT image models every field they take, streaming, and no response_format', () => {
    expect(
      wire('gpt-image-1', { quality: 'auto', size: 'auto', background: 'transparent', outputFormat: 'webp', outputCompression: 50, moderation: 'low', n: 2 }),
    ).toEqual({
      model: 'gpt-image-1',
      prompt: 'a fox',
      n: 2,
      size: 'auto',
      quality: 'auto',
      background: 'transparent',
      output_format: 'webp',
      output_compression: 50,
      moderation: 'low',
      stream: true,
      partial_images: 1,
    });
  });

  it("sends gpt-image-2.6's complexity and newer values, and nothing it does not take", () => {
    expect(wire('gpt-image-2.6-flare', { quality: 'max', outputFormat: 'svg', complexity: 'high', style: 'vivid' }, false)).toEqual({
      model: 'gpt-image-2.6-flare',
      prompt: 'a fox',
      quality: 'max',
      output_format: 'svg',
      complexity: 'high',
    });
  });

  it('sends a seed only to a model whose profile has seeds', () => {
    const seeded = new ModelProfiles({ 'flux-*': { seeds: true } });
    const params = (model: string, set: ModelProfiles) => Object.fromEntries(buildWireParams({ prompt: 'a fox', seed: 7 }, model, {}, set.of(model).profile));
    expect(params('flux-pro', seeded)).toEqual({ model: 'flux-pro', prompt: 'a fox', seed: 7 });
    expect(params('flux-pro', profiles)).not.toHaveProperty('seed');
    expect(params('gpt-image-1', seeded)).not.toHaveProperty('seed');
  });

  it('sends an edit its fidelity only where the model takes it', () => {
    const edit = (model: string) =>
      Object.fromEntries(buildWireParams({ prompt: 'a fox', images: [], inputFidelity: 'high' }, model, {}, profiles.of(model).profile));
    expect(edit('gpt-image-1')).toMatchObject({ input_fidelity: 'high' });
    expect(edit('dall-e-2')).not.toHaveProperty('input_fidelity');
  });
});
