/**
 * What a job cost (issue 17): the cost the gateway reported, or else an estimate from the usage it reported and the
 * model's prices (model-profiles.ts; operators set or correct them in MODEL_PROFILES_FILE). Each is labelled, so a
 * report never passes an estimate off as a bill. Pure.
 */
import { z } from 'zod';
import type { ImageUsage } from './images.js';

const Price = z.number().nonnegative().optional();

/** A model's prices in USD: per million tokens of each kind, and per image for models billed by the image. */
export const ModelPrices = z.strictObject({
  inputTextPerMillion: Price,
  inputImagePerMillion: Price,
  outputPerMillion: Price,
  perImage: Price,
});
export type ModelPrices = z.infer<typeof ModelPrices>;

/** A cost and where it came from. */
export interface JobCost {
  usd: number;
  source: 'reported' | 'estimated';
}

/**
 * The reported cost when the gateway gave one; else tokens × the model's prices (input tokens without their text
 * and image parts priced as text) plus images × its price per image; undefined when neither can be told.
 */
export function costOf(usage: ImageUsage | undefined, prices: ModelPrices | undefined, images: number): JobCost | undefined {
  if (usage?.costUsd !== undefined) return { usd: usage.costUsd, source: 'reported' };
  if (!prices) return undefined;
  const parts: (number | undefined)[] = [];
  const perToken = (tokens: number | undefined, perMillion: number | undefined) =>
    tokens === undefined || perMillion === undefined ? undefined : (tokens * perMillion) / 1e6;
  if (usage) {
    const split = usage.inputTextTokens !== undefined || usage.inputImageTokens !== undefined;
    if (split) {
      parts.push(
        perToken(usage.inputTextTokens, prices.inputTextPerMillion),
        perToken(usage.inputImageTokens, prices.inputImagePerMillion ?? prices.inputTextPerMillion),
      );
    } else parts.push(perToken(usage.inputTokens, prices.inputTextPerMillion));
    parts.push(perToken(usage.outputTokens, prices.outputPerMillion));
  }
  if (prices.perImage !== undefined) parts.push(images * prices.perImage);
  const known = parts.filter((part): part is number => part !== undefined);
  if (known.length === 0) return undefined;
  return { usd: roundUsd(known.reduce((sum, part) => sum + part, 0)), source: 'estimated' };
}

/** USD to a millionth of a dollar, so sums of costs do not drift with binary fractions. */
export const roundUsd = (usd: number): number => Math.round(usd * 1e6) / 1e6;
