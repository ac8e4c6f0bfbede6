import { describe, expect, it } from 'vitest';
import { costOf } from '../../src/core/cost.js';
import { ModelProfiles } from '../../src/core/model-profiles.js';

const GPT_IMAGE_1 = { inputTextPerMillion: 5, inputImagePerMillion: 10, outputPerMillion: 40 };

describe('costOf', () => {
  it('takes the cost the gateway reported, labelled reported', () => {
    expect(costOf({ outputTokens: 1_000, costUsd: 0.0421 }, GPT_IMAGE_1, 1)).toEqual({ usd: 0.0421, source: 'reported' });
  });

  it("estimates from the usage's parts and the model's prices, labelled estimated", () => {
    // 100 text + 1,000 image tokens in, 4,160 out: 0.0005 + 0.01 + 0.1664
    expect(costOf({ inputTextTokens: 100, inputImageTokens: 1_000, outputTokens: 4_160 }, GPT_IMAGE_1, 1)).toEqual({ usd: 0.1769, source: 'estimated' });
  });

  it('prices input without its parts as text, and adds a price per image', () => {
    expect(costOf({ inputTokens: 200, outputTokens: 0 }, { inputTextPerMillion: 5, perImage: 0.04 }, 2)).toEqual({ usd: 0.081, source: 'estimated' });
    expect(costOf(undefined, { perImage: 0.04 }, 3)).toEqual({ usd: 0.12, source: 'estimated' });
  });

  it('estimates nothing without prices, or without anything to price', () => {
    expect(costOf({ outputTokens: 100 }, undefined, 1)).toBeUndefined();
    expect(costOf(undefined, GPT_IMAGE_1, 1)).toBeUndefined();
  });

  it("carries OpenAI's published prices for gpt-image-1 and its mini, and none it does not know", () => {
    const profiles = new ModelProfiles();
    expect(profiles.of('gpt-image-1').profile.prices).toEqual(GPT_IMAGE_1);
    expect(profiles.of('gpt-image-1-mini').profile.prices).toEqual({ inputTextPerMillion: 2, inputImagePerMillion: 2.5, outputPerMillion: 8 });
    expect(profiles.of('gpt-image-2').profile.prices).toBeUndefined();
    expect(new ModelProfiles({ 'gpt-image-2': { prices: { outputPerMillion: 30 } } }).of('gpt-image-2').profile.prices).toEqual({ outputPerMillion: 30 });
  });
});
