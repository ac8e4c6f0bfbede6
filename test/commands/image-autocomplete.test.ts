import { afterEach, describe, expect, it, vi } from 'vitest';
import { CATALOGUE_WAIT_MS, createImageAutocomplete, MAX_CHOICES, seedChoices, sizeChoices, valueChoices } from '../../src/commands/image-autocomplete.js';
import { ModelProfiles } from '../../src/core/model-profiles.js';
import type { GatewayModel } from '../../src/core/images.js';
import { FakeInteraction } from '../fakes/fake-interaction.js';

const PROFILES = new ModelProfiles();
const profile = (model: string) => PROFILES.of(model).profile;
const values = (choices: { value: string }[]) => choices.map((c) => c.value);

const CATALOGUE: GatewayModel[] = [
  { id: 'gpt-image-1', image: true, default: true },
  { id: 'gpt-image-1-mini', image: true },
  { id: 'dall-e-3', image: true },
  { id: 'gpt-4o', image: false },
];

function autocompleteFor(name: string, value: string, options: Record<string, string> = {}): FakeInteraction {
  return new FakeInteraction({ kind: 'autocomplete', commandName: 'imagine', focused: { name, value }, options });
}

function choicesOf(interaction: FakeInteraction): unknown {
  return interaction.payloadsOf('respond')[0];
}

function names(interaction: FakeInteraction): string[] {
  const choices = choicesOf(interaction);
  return Array.isArray(choices) ? choices.map((c: { name: string }) => c.name) : [];
}

describe('suggestions in the member’s language', () => {
  it('name each value by its translation, and keep the value the option takes', () => {
    expect(valueChoices('quality', 'h', profile('gpt-image-1'), 'ja')).toEqual([{ name: '高', value: 'high' }]);
    expect(sizeChoices('au', profile('gpt-image-2'), 'ko')).toEqual([{ name: '자동', value: 'auto' }]);
    expect(sizeChoices('3840x2160', profile('gpt-image-2'), 'zh-CN')).toEqual([{ name: '3840x2160（实验性）', value: '3840x2160' }]);
    expect(valueChoices('quality', 'h', profile('gpt-image-1'))).toEqual([{ name: 'high', value: 'high' }]);
  });
});

describe('sizeChoices', () => {
  it("offers auto and the model's listed sizes when nothing is typed", () => {
    expect(values(sizeChoices('', profile('gpt-image-2')))).toEqual(['auto', '1024x1024', '1536x1024', '1024x1536']);
    expect(values(sizeChoices('', profile('dall-e-3')))).toEqual(['auto', '1024x1024', '1792x1024', '1024x1792']);
  });

  it('narrows the listed sizes to what is typed', () => {
    expect(values(sizeChoices('15', profile('gpt-image-2')))).toEqual(['1536x1024']);
  });

  it('offers a custom size first only to a model that takes it, marking experimental ones', () => {
    expect(sizeChoices('2048x1152', profile('gpt-image-2'))).toEqual([{ name: '2048x1152', value: '2048x1152' }]);
    expect(sizeChoices('3840x2160', profile('gpt-image-2'))).toEqual([{ name: '3840x2160 (experimental)', value: '3840x2160' }]);
    expect(values(sizeChoices('1024x1024', profile('gpt-image-2')))).toEqual(['1024x1024']);
    expect(sizeChoices('2048x1152', profile('gpt-image-1'))).toEqual([]);
    expect(sizeChoices('2048x1152', profile('dall-e-3'))).toEqual([]);
  });

  it.each(['999x999', '4096x1024', '16x4000', 'big'])('does not offer the invalid size %s', (typed) => {
    expect(values(sizeChoices(typed, profile('gpt-image-2')))).not.toContain(typed);
  });
});

describe('seedChoices', () => {
  const seeded = new ModelProfiles({ 'flux-*': { seeds: true } }).of('flux-pro').profile;

  it('offers a fresh random seed, after the seed typed, only to a model whose profile has seeds', () => {
    expect(seedChoices('', seeded, () => 1234567, 'en-US')).toEqual([{ name: '🎲 1234567 (a new random seed)', value: 1234567 }]);
    expect(seedChoices('42', seeded, () => 7, 'fr')).toEqual([
      { name: '42', value: 42 },
      { name: '🎲 7 (une nouvelle graine aléatoire)', value: 7 },
    ]);
    expect(seedChoices('9999999999', seeded, () => 7)).toEqual([{ name: '🎲 7 (a new random seed)', value: 7 }]);
  });

  it.each(['gpt-image-1', 'dall-e-3', 'flux-pro'])('offers nothing to %s, whose profile has no seeds', (model) => {
    expect(seedChoices('', profile(model), () => 7)).toEqual([]);
  });
});

describe('createImageAutocomplete', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers the size option with at most 25 name/value choices', async () => {
    const handler = createImageAutocomplete({ listModels: async () => CATALOGUE, cachedModels: () => CATALOGUE }, PROFILES);
    const interaction = autocompleteFor('size', ' 1024X1536 ');
    await handler(interaction.asAutocomplete());
    expect(choicesOf(interaction)).toEqual([{ name: '1024x1536', value: '1024x1536' }]);
  });

  it('lists image models only until something is typed, then any model that matches', async () => {
    const handler = createImageAutocomplete({ listModels: async () => CATALOGUE, cachedModels: () => [] }, PROFILES);
    const empty = autocompleteFor('model', '');
    const typed = autocompleteFor('model', 'GPT');
    await handler(empty.asAutocomplete());
    await handler(typed.asAutocomplete());
    expect(names(empty)).toEqual(['gpt-image-1', 'gpt-image-1-mini', 'dall-e-3']);
    expect(names(typed)).toEqual(['gpt-image-1', 'gpt-image-1-mini', 'gpt-4o']);
  });

  it('never offers more than 25 models', async () => {
    const many = Array.from({ length: 60 }, (_, i) => ({ id: `gpt-image-${i}`, image: true }));
    const handler = createImageAutocomplete({ listModels: async () => many, cachedModels: () => many }, PROFILES);
    const interaction = autocompleteFor('model', '');
    await handler(interaction.asAutocomplete());
    expect(names(interaction)).toHaveLength(MAX_CHOICES);
  });

  it('answers from the cached catalogue when the gateway does not answer in time', async () => {
    vi.useFakeTimers();
    const handler = createImageAutocomplete(
      {
        listModels: () => new Promise<GatewayModel[]>(() => undefined),
        cachedModels: () => [{ id: 'gpt-image-1', image: true }],
      },
      PROFILES,
    );
    const interaction = autocompleteFor('model', '');

    const answered = handler(interaction.asAutocomplete());
    await vi.advanceTimersByTimeAsync(CATALOGUE_WAIT_MS);
    await answered;

    expect(names(interaction)).toEqual(['gpt-image-1']);
  });

  it('answers from the cached catalogue when listing fails', async () => {
    const handler = createImageAutocomplete(
      {
        listModels: async () => {
          throw new Error('down');
        },
        cachedModels: () => CATALOGUE.slice(0, 1),
      },
      PROFILES,
    );
    const interaction = autocompleteFor('model', '');
    await handler(interaction.asAutocomplete());
    expect(names(interaction)).toEqual(['gpt-image-1']);
  });

  it('answers other options with no choices', async () => {
    const handler = createImageAutocomplete({ listModels: async () => CATALOGUE, cachedModels: () => CATALOGUE }, PROFILES);
    const interaction = autocompleteFor('prompt', 'x');
    await handler(interaction.asAutocomplete());
    expect(choicesOf(interaction)).toEqual([]);
  });

  it.each([
    ['quality', 'gpt-image-1', '', ['auto', 'low', 'medium', 'high']],
    ['quality', 'gpt-image-2.5', '', ['auto', 'low', 'medium', 'high', 'xhigh', 'max']],
    ['quality', 'dall-e-3', '', ['standard', 'hd']],
    ['quality', 'gpt-image-2.6-flare', 'x', ['xhigh']],
    ['format', 'gpt-image-2.6-sunburst', '', ['png', 'jpeg', 'webp', 'gif', 'svg']],
    ['format', 'gpt-image-2', '', ['png', 'jpeg', 'webp']],
    ['format', 'dall-e-3', '', ['png']],
    ['background', 'gpt-image-2', '', ['auto', 'opaque']],
    ['background', 'gpt-image-1', 't', ['transparent']],
    ['style', 'dall-e-3', '', ['vivid', 'natural']],
    ['style', 'gpt-image-2', '', []],
    ['complexity', 'gpt-image-2.6-flare', '', ['low', 'medium', 'high']],
    ['complexity', 'gpt-image-2.5', '', []],
  ])('offers for %s only what %s takes (typed %j)', async (option, model, typed, expected) => {
    const handler = createImageAutocomplete({ listModels: async () => CATALOGUE, cachedModels: () => CATALOGUE }, PROFILES);
    const interaction = autocompleteFor(option, typed, { model });
    await handler(interaction.asAutocomplete());
    expect(names(interaction)).toEqual(expected);
  });

  it('uses the default model in use when no model is chosen', async () => {
    const catalogue: GatewayModel[] = [{ id: 'dall-e-3', image: true, default: true }];
    const handler = createImageAutocomplete({ listModels: async () => catalogue, cachedModels: () => catalogue }, PROFILES);
    const interaction = autocompleteFor('quality', '');
    await handler(interaction.asAutocomplete());
    expect(names(interaction)).toEqual(['standard', 'hd']);
  });

  it("follows an operator's profile", async () => {
    const profiles = new ModelProfiles({ 'my-flux-*': { extends: 'dall-e-2', qualities: ['low', 'high'] } });
    const handler = createImageAutocomplete({ listModels: async () => CATALOGUE, cachedModels: () => CATALOGUE }, profiles);
    const interaction = autocompleteFor('quality', '', { model: 'my-flux-pro' });
    await handler(interaction.asAutocomplete());
    expect(names(interaction)).toEqual(['low', 'high']);
  });
});
