/**
 * What an OpenRouter image model accepts, from its catalogue entry's `supported_parameters` (typed descriptors:
 * `{type:"enum",values}`, `{type:"range",min,max}`, `{type:"boolean"}`; an absent key means the parameter is
 * unsupported), as the bot's model profile (model-profiles.ts): the values members are offered and held to. Sizes
 * are the model's `size` values when it lists them, else one WIDTHxHEIGHT per resolution tier (512, 1K, 2K, 4K) and
 * aspect ratio it lists, and {@link toTierAndRatio} maps a size back. Pure.
 *
 * @see https://openrouter.ai/docs/guides/overview/multimodal/image-generation ("Capability Descriptors", "Resolution and Aspect Ratio")
 * @see https://openrouter.ai/docs/client-sdks/typescript/models/imagemodellistitem
 */
import { z } from 'zod';
import { IMAGE_BACKGROUNDS, IMAGE_FORMATS, IMAGE_QUALITIES, MAX_EDIT_IMAGES, MAX_IMAGES_PER_REQUEST, MAX_PROMPT_LENGTH } from '../core/image-request.js';
import { readSize, type Size, sizeText } from '../core/sizes.js';
import type { ModelProfile } from '../core/model-profiles.js';

/** One capability descriptor; a kind this client does not know still says the parameter is supported. */
export const Descriptor = z.union([
  z.object({ type: z.literal('enum'), values: z.array(z.union([z.string(), z.number()]).transform(String)) }),
  z.object({ type: z.literal('range'), min: z.number(), max: z.number() }),
  z.object({ type: z.string() }).transform(() => ({ type: 'other' as const })),
]);
export type Descriptor = z.infer<typeof Descriptor>;
export type Descriptors = Readonly<Record<string, Descriptor>>;

/** The side of a square image of each resolution tier; other aspect ratios keep its area. */
const TIER_SIDES: Readonly<Record<string, number>> = { '512': 512, '0.5K': 512, '1K': 1024, '2K': 2048, '4K': 4096 };
/** Sides are rounded to multiples of this. */
const STEP = 16;

/** The values of an enum descriptor, or undefined when the parameter is not one (or not supported). */
export function enumValues(params: Descriptors, name: string): readonly string[] | undefined {
  const descriptor = params[name];
  return descriptor?.type === 'enum' ? descriptor.values : undefined;
}

/** The upper bound of a range descriptor, or undefined. */
function rangeMax(params: Descriptors, name: string): number | undefined {
  const descriptor = params[name];
  return descriptor?.type === 'range' ? descriptor.max : undefined;
}

/** `16:9` → 16/9; undefined for `auto` or anything else. */
function ratioOf(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(text);
  return match ? Number(match[1]) / Number(match[2]) : undefined;
}

const round = (side: number): number => Math.max(STEP, Math.round(side / STEP) * STEP);

/** The nominal WIDTHxHEIGHT of a tier and aspect ratio: the tier's square area, at that ratio. */
export function sizeOf(tier: string, ratio: string): Size | undefined {
  const side = TIER_SIDES[tier];
  const r = ratioOf(ratio);
  if (side === undefined || r === undefined) return undefined;
  return { width: round(side * Math.sqrt(r)), height: round(side / Math.sqrt(r)) };
}

/** Each size once, in order. */
const distinct = (sizes: readonly Size[]): Size[] => [...new Map(sizes.map((size) => [sizeText(size), size])).values()];

/** The sizes members are offered: the model's `size` values, or one per tier and ratio it lists (1K and 1:1 where it lists none). */
export function sizesOf(params: Descriptors): Size[] {
  const listed = (enumValues(params, 'size') ?? []).map(readSize).filter((size): size is Size => size !== undefined && size !== 'auto');
  if (listed.length > 0) return distinct(listed);
  const tiers = enumValues(params, 'resolution')?.filter((tier) => TIER_SIDES[tier] !== undefined) ?? ['1K'];
  const ratios = enumValues(params, 'aspect_ratio')?.filter((ratio) => ratioOf(ratio) !== undefined) ?? ['1:1'];
  const sizes = tiers.flatMap((tier) => ratios.map((ratio) => sizeOf(tier, ratio)));
  const known = sizes.filter((size): size is Size => size !== undefined);
  return known.length > 0 ? distinct(known) : [{ width: 1024, height: 1024 }];
}

/**
 * The model's resolution tier and aspect ratio nearest to a WIDTHxHEIGHT (the ratio by its logarithm, the tier by
 * the area), each only when the model takes that parameter.
 */
export function toTierAndRatio(parsed: Size, params: Descriptors): { resolution?: string; aspect_ratio?: string } {
  const nearest = (values: readonly string[] | undefined, distance: (value: string) => number | undefined): string | undefined => {
    const scored = (values ?? []).map((value) => ({ value, d: distance(value) })).filter((s): s is { value: string; d: number } => s.d !== undefined);
    return scored.sort((a, b) => a.d - b.d)[0]?.value;
  };
  const area = Math.log(parsed.width * parsed.height);
  const shape = Math.log(parsed.width / parsed.height);
  const resolution = nearest(enumValues(params, 'resolution'), (tier) => {
    const side = TIER_SIDES[tier];
    return side === undefined ? undefined : Math.abs(area - Math.log(side * side));
  });
  const aspect = nearest(enumValues(params, 'aspect_ratio'), (ratio) => {
    const r = ratioOf(ratio);
    return r === undefined ? undefined : Math.abs(shape - Math.log(r));
  });
  return { ...(resolution === undefined ? {} : { resolution }), ...(aspect === undefined ? {} : { aspect_ratio: aspect }) };
}

/** The known values among a model's, in the bot's order. */
function known<T extends string>(all: readonly T[], values: readonly string[] | undefined): T[] {
  return all.filter((value) => values?.includes(value) === true);
}

/** The ratios and resolutions the model lists, which the bot sends as they are (aspect-ratios.ts). */
function nativeRatios(params: Descriptors): Pick<ModelProfile, 'aspectRatios' | 'resolutions'> {
  const ratios = enumValues(params, 'aspect_ratio')?.filter((ratio) => ratioOf(ratio) !== undefined);
  const tiers = enumValues(params, 'resolution')?.filter((tier) => TIER_SIDES[tier] !== undefined);
  return { ...(ratios && ratios.length > 0 ? { aspectRatios: [...ratios] } : {}), ...(tiers && tiers.length > 0 ? { resolutions: [...tiers] } : {}) };
}

/** The profile of an OpenRouter image model (see the module comment). */
export function profileOf(params: Descriptors, streaming: boolean): ModelProfile {
  const references = rangeMax(params, 'input_references');
  return {
    sizes: sizesOf(params),
    ...nativeRatios(params),
    customSizes: null,
    // `auto` leaves the size to the model: nothing is sent.
    autoSize: false,
    qualities: known(IMAGE_QUALITIES, enumValues(params, 'quality')),
    formats: known(IMAGE_FORMATS, enumValues(params, 'output_format')),
    compression: params['output_compression'] !== undefined,
    backgrounds: known(IMAGE_BACKGROUNDS, enumValues(params, 'background')),
    // OpenRouter's request has none of these.
    moderation: false,
    styles: [],
    complexities: [],
    // A `seed` descriptor (a boolean one, in OpenRouter's own examples) says the model takes seeds.
    seeds: params['seed'] !== undefined,
    edits:
      references !== undefined && references >= 1
        ? { maxImages: Math.min(references, MAX_EDIT_IMAGES), mask: false, inputFidelity: false, squarePng: false }
        : null,
    streaming,
    // Without `n` the model makes one image per request (Gemini's range is 1–1).
    maxN: Math.max(1, Math.min(rangeMax(params, 'n') ?? 1, MAX_IMAGES_PER_REQUEST)),
    responseFormat: false,
    maxPromptLength: MAX_PROMPT_LENGTH,
  };
}
