import { describe, expect, it } from 'vitest';
import { estimateCost } from '../../src/service/cost-estimate.js';

const GPT_IMAGE_1 = { inputTextPerMillion: 5, inputImagePerMillion: 10, outputPerMillion: 40 };

describe('estimateCost', () => {
  it("prices output tokens by quality and size, prompt tokens and each image's count", () => {
    // 4,160 tokens per high 1024x1024 image at $40/M, ×2, plus 3 prompt tokens at $5/M.
    expect(estimateCost({ prompt: 'a red fox', size: { width: 1024, height: 1024 }, quality: 'high', n: 2 }, GPT_IMAGE_1)).toBe(0.332815);
    expect(estimateCost({ prompt: 'a red fox', size: { width: 1024, height: 1024 }, quality: 'low' }, GPT_IMAGE_1)).toBe(0.010895);
    // Other sizes scale with their area: 1536x1024 is 1.5 times the pixels.
    expect(estimateCost({ prompt: 'a red fox', size: { width: 1536, height: 1024 }, quality: 'medium' }, GPT_IMAGE_1)).toBe(0.063375);
  });

  it('errs high where the model chooses: auto quality counts as high and auto size as the largest standard size', () => {
    expect(estimateCost({ prompt: 'a red fox' }, GPT_IMAGE_1)).toBe(
      estimateCost({ prompt: 'a red fox', size: { width: 1536, height: 1024 }, quality: 'high' }, GPT_IMAGE_1),
    );
  });

  it("adds an edit's reference images by their tiles, and high fidelity", () => {
    const request = { prompt: 'a red fox', size: { width: 1024, height: 1024 }, quality: 'low' } as const;
    const plain = estimateCost(request, GPT_IMAGE_1) ?? 0;
    // 85 + 170 × 4 tiles = 765 tokens at $10/M; high fidelity adds 4,160.
    expect(estimateCost(request, GPT_IMAGE_1, { images: [{ width: 1024, height: 1024 }] })).toBeCloseTo(plain + 0.00765, 6);
    expect(estimateCost(request, GPT_IMAGE_1, { images: [{ width: 1024, height: 1024 }], inputFidelity: 'high' })).toBeCloseTo(plain + 0.04925, 6);
  });

  it('uses a price per image, and knows nothing without prices', () => {
    expect(estimateCost({ prompt: 'x', n: 3 }, { perImage: 0.04 })).toBe(0.12);
    expect(estimateCost({ prompt: 'x' }, undefined)).toBeUndefined();
    expect(estimateCost({ prompt: 'x' }, { inputTextPerMillion: 5 })).toBeUndefined();
  });
});
