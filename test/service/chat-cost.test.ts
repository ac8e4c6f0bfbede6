/**
 * Prompt help's chat costs (service/chat-cost.ts): an estimate from the model's prices, or none without them; an
 * answered call's cost as reported, else from its usage, else its estimate, so it is never free in a money limit.
 */
import { describe, expect, it } from 'vitest';
import { chatCostOf, estimateChatCost } from '../../src/service/chat-cost.js';

const call = { model: 'gpt-4o-mini', inputChars: 400, imageTokens: 1000, maxOutputTokens: 300 };

describe('chat costs', () => {
  it('estimates from the prices: text in, images at their own price or else text’s, the longest answer out', () => {
    // 400 characters are 100 tokens, plus 16 of framing.
    expect(estimateChatCost(call, { inputTextPerMillion: 1, inputImagePerMillion: 2, outputPerMillion: 10 })).toBe(0.005116);
    expect(estimateChatCost(call, { inputTextPerMillion: 1, outputPerMillion: 10 })).toBe(0.004116);
    // A price not given counts as nothing.
    expect(estimateChatCost(call, { outputPerMillion: 10 })).toBe(0.003);
    expect(estimateChatCost(call, { inputTextPerMillion: 1 })).toBe(0.001116);
  });

  it('has no estimate without prices for text or answers', () => {
    expect(estimateChatCost(call, undefined)).toBeUndefined();
    expect(estimateChatCost(call, { perImage: 0.04 })).toBeUndefined();
  });

  it('costs an answered call as reported, else by its usage, else its estimate', () => {
    expect(chatCostOf({ usage: { costUsd: 0.002 } }, undefined, 0.5)).toEqual({ usd: 0.002, source: 'reported' });
    expect(chatCostOf({ usage: { inputTokens: 1000, outputTokens: 100 } }, { inputTextPerMillion: 1, outputPerMillion: 10 }, 0.5)).toEqual({
      usd: 0.002,
      source: 'estimated',
    });
    expect(chatCostOf({}, undefined, 0.1234567)).toEqual({ usd: 0.123457, source: 'estimated' });
  });
});
