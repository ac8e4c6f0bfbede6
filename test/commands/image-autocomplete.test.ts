import { afterEach, describe, expect, it, vi } from 'vitest';
import { CATALOGUE_WAIT_MS, createImageAutocomplete, MAX_CHOICES, sizeChoices } from '../../src/commands/image-autocomplete.js';
import type { GatewayModel } from '../../src/service/ports.js';
import { FakeInteraction } from '../fakes/fake-interaction.js';

const CATALOGUE: GatewayModel[] = [
  { id: 'gpt-image-1', image: true },
  { id: 'gpt-image-1-mini', image: true },
  { id: 'dall-e-3', image: true },
  { id: 'gpt-4o', image: false },
];

function autocompleteFor(name: string, value: string): FakeInteraction {
  return new FakeInteraction({ kind: 'autocomplete', commandName: 'imagine', focused: { name, value } });
}

function choicesOf(interaction: FakeInteraction): unknown {
  return interaction.payloadsOf('respond')[0];
}

function names(interaction: FakeInteraction): string[] {
  const choices = choicesOf(interaction);
  return Array.isArray(choices) ? choices.map((c: { name: string }) => c.name) : [];
}

describe('sizeChoices', () => {
  it('offers auto and the standard sizes when nothing is typed', () => {
    expect(sizeChoices('')).toEqual(['auto', '1024x1024', '1536x1024', '1024x1536']);
  });

  it('narrows the standard sizes to what is typed', () => {
    expect(sizeChoices('15')).toEqual(['1536x1024']);
  });

  it('offers a valid custom size first', () => {
    expect(sizeChoices('2048x1152')).toEqual(['2048x1152']);
    expect(sizeChoices('1024x1024')).toEqual(['1024x1024']);
  });

  it.each(['999x999', '4096x1024', '16x4000', 'big'])('does not offer the invalid size %s', (typed) => {
    expect(sizeChoices(typed)).not.toContain(typed);
  });
});

describe('createImageAutocomplete', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers the size option with at most 25 name/value choices', async () => {
    const handler = createImageAutocomplete({ listModels: async () => CATALOGUE, cachedModels: () => CATALOGUE });
    const interaction = autocompleteFor('size', ' 1024X1536 ');
    await handler(interaction.asAutocomplete());
    expect(choicesOf(interaction)).toEqual([{ name: '1024x1536', value: '1024x1536' }]);
  });

  it('lists image models only until something is typed, then any model that matches', async () => {
    const handler = createImageAutocomplete({ listModels: async () => CATALOGUE, cachedModels: () => [] });
    const empty = autocompleteFor('model', '');
    const typed = autocompleteFor('model', 'GPT');
    await handler(empty.asAutocomplete());
    await handler(typed.asAutocomplete());
    expect(names(empty)).toEqual(['gpt-image-1', 'gpt-image-1-mini', 'dall-e-3']);
    expect(names(typed)).toEqual(['gpt-image-1', 'gpt-image-1-mini', 'gpt-4o']);
  });

  it('never offers more than 25 models', async () => {
    const many = Array.from({ length: 60 }, (_, i) => ({ id: `gpt-image-${i}`, image: true }));
    const handler = createImageAutocomplete({ listModels: async () => many, cachedModels: () => many });
    const interaction = autocompleteFor('model', '');
    await handler(interaction.asAutocomplete());
    expect(names(interaction)).toHaveLength(MAX_CHOICES);
  });

  it('answers from the cached catalogue when the gateway does not answer in time', async () => {
    vi.useFakeTimers();
    const handler = createImageAutocomplete({
      listModels: () => new Promise<GatewayModel[]>(() => undefined),
      cachedModels: () => [{ id: 'gpt-image-1', image: true }],
    });
    const interaction = autocompleteFor('model', '');

    const answered = handler(interaction.asAutocomplete());
    await vi.advanceTimersByTimeAsync(CATALOGUE_WAIT_MS);
    await answered;

    expect(names(interaction)).toEqual(['gpt-image-1']);
  });

  it('answers from the cached catalogue when listing fails', async () => {
    const handler = createImageAutocomplete({
      listModels: async () => {
        throw new Error('down');
      },
      cachedModels: () => CATALOGUE.slice(0, 1),
    });
    const interaction = autocompleteFor('model', '');
    await handler(interaction.asAutocomplete());
    expect(names(interaction)).toEqual(['gpt-image-1']);
  });

  it('answers other options with no choices', async () => {
    const handler = createImageAutocomplete({ listModels: async () => CATALOGUE, cachedModels: () => CATALOGUE });
    const interaction = autocompleteFor('prompt', 'x');
    await handler(interaction.asAutocomplete());
    expect(choicesOf(interaction)).toEqual([]);
  });
});
