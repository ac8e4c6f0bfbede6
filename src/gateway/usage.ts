/**
 * The usage a gateway reports, in whatever shape, as the bot records it: input, output and total tokens (OpenAI's
 * `input_tokens`/`output_tokens` or the chat shape's `prompt_tokens`/`completion_tokens`), the image and text parts
 * where `*_details` give them, and a cost in USD where the gateway reports one (`usage.cost`,
 * `usage.cost_in_usd_ticks`, or LiteLLM's `x-litellm-response-cost` header).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ImageUsage } from '../core/images.js';
import { headerValue } from './request-id.js';
import type { ImagesUsage } from './schemas.js';

/** One tick of `cost_in_usd_ticks` in USD. */
const USD_PER_TICK = 1e-10;

/** The normalised usage, or undefined when the answer reports none. */
export function normaliseUsage(raw: ImagesUsage | undefined, headers: IncomingHttpHeaders): ImageUsage | undefined {
  const usage: ImageUsage = {};
  const input = raw?.input_tokens ?? raw?.prompt_tokens ?? undefined;
  const output = raw?.output_tokens ?? raw?.completion_tokens ?? undefined;
  const inputDetails = raw?.input_tokens_details ?? raw?.prompt_tokens_details ?? undefined;
  put(usage, 'inputTokens', input);
  put(usage, 'outputTokens', output);
  put(usage, 'totalTokens', raw?.total_tokens ?? (input !== undefined && output !== undefined ? input + output : undefined));
  put(usage, 'inputTextTokens', inputDetails?.text_tokens);
  put(usage, 'inputImageTokens', inputDetails?.image_tokens);
  put(usage, 'outputImageTokens', raw?.output_tokens_details?.image_tokens);
  put(usage, 'outputTextTokens', raw?.output_tokens_details?.text_tokens);
  put(usage, 'costUsd', reportedCost(raw, headers));
  return Object.keys(usage).length > 0 ? usage : undefined;
}

function reportedCost(raw: ImagesUsage | undefined, headers: IncomingHttpHeaders): number | undefined {
  const fromUsage = typeof raw?.cost === 'string' ? Number(raw.cost) : raw?.cost;
  if (fromUsage !== undefined && fromUsage !== null && Number.isFinite(fromUsage) && fromUsage >= 0) return fromUsage;
  if (raw?.cost_in_usd_ticks !== undefined && raw.cost_in_usd_ticks !== null) return raw.cost_in_usd_ticks * USD_PER_TICK;
  const header = Number(headerValue(headers, 'x-litellm-response-cost'));
  return Number.isFinite(header) && header >= 0 && headerValue(headers, 'x-litellm-response-cost') !== undefined ? header : undefined;
}

function put(usage: ImageUsage, key: keyof ImageUsage, value: number | null | undefined): void {
  if (value !== undefined && value !== null) usage[key] = value;
}
