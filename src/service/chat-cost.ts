/**
 * What prompt help's chat calls cost (issue 29: prompt help is metered like images). Before a call: an estimate that
 * errs high (every character of the instruction and the member's text as a token's worth of four, images at their
 * tile count, and the longest answer asked for); after it: the cost the gateway reported, or its usage × the chat
 * model's prices (set for any model in MODEL_PROFILES_FILE, built in for OpenAI's). Pure.
 */
import { costOf, roundUsd, type JobCost, type ModelPrices } from '../core/cost.js';
import type { ImageUsage } from '../core/images.js';

/** The shape of one chat call, as far as its price goes. */
export interface ChatCall {
  model: string;
  /** Characters of text sent (instruction and the member's text). */
  inputChars: number;
  /** Input tokens of the images sent (0 for enhance). */
  imageTokens: number;
  /** The longest answer asked for (PROMPT_MAX_TOKENS). */
  maxOutputTokens: number;
}

/** A token is about four characters; a message's framing adds a few tokens. */
const CHARS_PER_TOKEN = 4;
const FRAMING_TOKENS = 16;

/** The estimated cost of `call` in USD; undefined when the model's prices are not known. */
export function estimateChatCost(call: ChatCall, prices: ModelPrices | undefined): number | undefined {
  if (!prices || (prices.inputTextPerMillion === undefined && prices.outputPerMillion === undefined)) return undefined;
  const input = Math.ceil(call.inputChars / CHARS_PER_TOKEN) + FRAMING_TOKENS;
  const perMillion = (tokens: number, price: number | undefined) => (tokens * (price ?? 0)) / 1e6;
  return roundUsd(
    perMillion(input, prices.inputTextPerMillion) +
      perMillion(call.imageTokens, prices.inputImagePerMillion ?? prices.inputTextPerMillion) +
      perMillion(call.maxOutputTokens, prices.outputPerMillion),
  );
}

/**
 * What a call that answered cost: reported, or from its usage and the model's prices; `fallbackUsd` (its estimate)
 * when neither tells, so an answered call is never free in a money limit.
 */
export function chatCostOf(used: { usage?: ImageUsage | undefined }, prices: ModelPrices | undefined, fallbackUsd: number): JobCost {
  return costOf(used.usage, prices, 0) ?? { usd: roundUsd(fallbackUsd), source: 'estimated' };
}
