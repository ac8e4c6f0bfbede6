/**
 * What a request will cost, told before anything is reserved (issue 17's money limits and confirm threshold): the
 * model's prices (model-profiles.ts, overridable in MODEL_PROFILES_FILE) × the tokens such a request uses, by
 * OpenAI's published token counts for GPT image models. It errs high (auto quality counts as high, auto size as
 * the largest standard size), so a money limit is not overrun by its estimates; the commit records the actual cost.
 * Pure.
 */
import type { ModelPrices } from '../core/cost.js';
import { roundUsd } from '../core/cost.js';
import type { GenerateRequest, InputFidelity } from '../core/images.js';

/** Output tokens of one 1024×1024 image by quality (gpt-image-1's table; other sizes scale with their area). */
const OUTPUT_TOKENS_1024: Readonly<Record<string, number>> = {
  low: 272,
  medium: 1056,
  standard: 1056,
  high: 4160,
  hd: 4160,
  auto: 4160,
};
/** Qualities above high: counted as twice its tokens. */
const ABOVE_HIGH_TOKENS = 8320;
const SQUARE = 1024 * 1024;
/** auto size: the largest standard size. */
const AUTO_PIXELS = 1536 * 1024;
/** Input tokens of a reference image: 85 plus 170 per 512-pixel tile; high fidelity adds about a high-quality image's worth. */
const BASE_IMAGE_TOKENS = 85;
const TILE_TOKENS = 170;
const HIGH_FIDELITY_TOKENS = 4160;

/** Output tokens each streamed partial image (a preview) adds per image (OpenAI's image generation guide). */
export const PARTIAL_IMAGE_TOKENS = 100;

/** What else a request's cost depends on. */
export interface EstimateExtras {
  /** Partial images (previews) the call asks for. */
  partialImages?: number | undefined;
  /** The longest prompt it may go out with (enhance rewrites it first, up to its longest answer). */
  promptChars?: number | undefined;
}

/** What an estimate needs to know of an edit's references (as Discord declares them). */
export interface EstimatedReferences {
  images: readonly { width?: number | null | undefined; height?: number | null | undefined }[];
  inputFidelity?: InputFidelity | undefined;
}

/**
 * The estimated cost of `request` in USD (to a millionth), or undefined when the model's prices are not known (no
 * price per output token nor per image).
 */
export function estimateCost(
  request: GenerateRequest,
  prices: ModelPrices | undefined,
  references?: EstimatedReferences,
  extras: EstimateExtras = {},
): number | undefined {
  if (!prices || (prices.outputPerMillion === undefined && prices.perImage === undefined)) return undefined;
  const images = request.n ?? 1;
  const perMillion = (tokens: number, price: number | undefined) => (tokens * (price ?? 0)) / 1e6;
  const partials = (extras.partialImages ?? 0) * PARTIAL_IMAGE_TOKENS;
  const output = images * (perMillion(outputTokens(request) + partials, prices.outputPerMillion) + (prices.perImage ?? 0));
  const promptChars = Math.max(request.prompt.length, extras.promptChars ?? 0);
  const text = perMillion(Math.ceil(promptChars / 4), prices.inputTextPerMillion);
  const referenceTokens = (references?.images ?? []).reduce((sum, image) => sum + imageTokens(image, references?.inputFidelity), 0);
  const input = perMillion(referenceTokens, prices.inputImagePerMillion ?? prices.inputTextPerMillion);
  return roundUsd(output + text + input);
}

function outputTokens(request: GenerateRequest): number {
  const perSquare = OUTPUT_TOKENS_1024[request.quality ?? 'auto'] ?? ABOVE_HIGH_TOKENS;
  const size = request.size ?? 'auto';
  const pixels = size === 'auto' ? AUTO_PIXELS : size.width * size.height;
  return Math.ceil((perSquare * pixels) / SQUARE);
}

function imageTokens(image: EstimatedReferences['images'][number], fidelity: InputFidelity | undefined): number {
  const width = image.width ?? 1024;
  const height = image.height ?? 1024;
  const tiles = Math.ceil(width / 512) * Math.ceil(height / 512);
  return BASE_IMAGE_TOKENS + TILE_TOKENS * tiles + (fidelity === 'high' ? HIGH_FIDELITY_TOKENS : 0);
}
