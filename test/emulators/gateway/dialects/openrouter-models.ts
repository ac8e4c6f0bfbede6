/**
 * The OpenRouter emulator's image catalogue: each model's capability descriptors (`supported_parameters`:
 * `{type:"enum",values}`, `{type:"range",min,max}`, `{type:"boolean"}`; an absent key is an unsupported parameter),
 * whether it streams, and its price per image. Modelled on OpenRouter's documented examples (Seedream's `resolution`
 * enum and `seed` boolean) and on what a Gemini image model takes (`n` 1–1, tiers 512–4K, its aspect ratios, up to
 * 14 references); how a tier and ratio become pixels is this emulated provider's own rule (OpenRouter says the
 * dimensions are "derived per-provider").
 *
 * @see https://openrouter.ai/docs/client-sdks/typescript/models/imagemodellistitem
 * @see https://openrouter.ai/docs/client-sdks/typescript/models/imagemodelendpointsresponse
 */

/** One capability descriptor. */
export type Descriptor = { type: 'enum'; values: string[] } | { type: 'range'; min: number; max: number } | { type: 'boolean' };

/** One image model of the catalogue. */
export interface OpenRouterModelDef {
  id: string;
  name: string;
  supported_parameters: Readonly<Record<string, Descriptor>>;
  supports_streaming: boolean;
  /** USD per image by resolution tier; `default` for a request without one. */
  pricePerImage: Readonly<Record<string, number>>;
  provider: string;
}

const range = (min: number, max: number): Descriptor => ({ type: 'range', min, max });
const oneOf = (...values: string[]): Descriptor => ({ type: 'enum', values });

const GEMINI_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];

/** The default catalogue. */
export const OPENROUTER_MODELS: readonly OpenRouterModelDef[] = [
  {
    id: 'google/gemini-3.1-flash-image',
    name: 'Google: Nano Banana 2',
    supported_parameters: { n: range(1, 1), resolution: oneOf('512', '1K', '2K', '4K'), aspect_ratio: oneOf(...GEMINI_RATIOS), input_references: range(0, 14) },
    supports_streaming: false,
    pricePerImage: { '512': 0.0195, '1K': 0.039, '2K': 0.078, '4K': 0.156, default: 0.039 },
    provider: 'Google AI Studio',
  },
  {
    id: 'openai/gpt-image-2',
    name: 'OpenAI: GPT Image 2',
    supported_parameters: {
      n: range(1, 10),
      aspect_ratio: oneOf('1:1', '3:2', '2:3', '16:9', '9:16', 'auto'),
      quality: oneOf('auto', 'low', 'medium', 'high'),
      background: oneOf('auto', 'opaque'),
      output_format: oneOf('png', 'jpeg', 'webp'),
      output_compression: range(0, 100),
      input_references: range(0, 16),
    },
    supports_streaming: true,
    pricePerImage: { default: 0.053 },
    provider: 'OpenAI',
  },
  {
    id: 'bytedance-seed/seedream-4.5',
    name: 'ByteDance Seed: Seedream 4.5',
    supported_parameters: { n: range(1, 4), resolution: oneOf('1K', '2K', '4K'), seed: { type: 'boolean' }, input_references: range(0, 10) },
    supports_streaming: false,
    pricePerImage: { default: 0.04 },
    provider: 'Bytedance',
  },
  {
    id: 'black-forest-labs/flux.2-pro',
    name: 'Black Forest Labs: FLUX.2 Pro',
    supported_parameters: { size: oneOf('1024x1024', '1536x1024', '1024x1536'), seed: { type: 'boolean' } },
    supports_streaming: false,
    pricePerImage: { default: 0.03 },
    provider: 'Black Forest Labs',
  },
];

/** The chat models OpenRouter lists at `GET /models` (image models only with `?output_modalities=image`). */
export const OPENROUTER_CHAT_MODELS: readonly string[] = ['openai/gpt-4o-mini', 'google/gemini-2.5-flash'];

const TIER_SIDES: Readonly<Record<string, number>> = { '512': 512, '1K': 1024, '2K': 2048, '4K': 4096 };

/** This provider's pixels for a tier and ratio: the tier's square area at that ratio, sides multiples of 16. */
export function pixelsOf(tier: string | undefined, ratio: string | undefined): { width: number; height: number } {
  const side = TIER_SIDES[tier ?? '1K'] ?? 1024;
  const [a = 1, b = 1] = (ratio && ratio !== 'auto' ? ratio : '1:1').split(':').map(Number);
  const r = a / b;
  const round = (n: number) => Math.max(16, Math.round(n / 16) * 16);
  return { width: round(side * Math.sqrt(r)), height: round(side / Math.sqrt(r)) };
}

const CREATED = 1_760_000_000;

/** `GET /images/models`: `{data:[ImageModelListItem]}`. */
export function imageModelsBody(models: readonly OpenRouterModelDef[]): string {
  return JSON.stringify({
    data: models.map((m) => ({
      id: m.id,
      name: m.name,
      created: CREATED,
      description: `${m.name}, emulated.`,
      architecture: { input_modalities: m.supported_parameters['input_references'] ? ['text', 'image'] : ['text'], output_modalities: ['image'] },
      endpoints: `/api/v1/images/models/${m.id}/endpoints`,
      supported_parameters: m.supported_parameters,
      supports_streaming: m.supports_streaming,
    })),
  });
}

/** `GET /images/models/{id}/endpoints`: the model's one emulated endpoint, with its pricing. */
export function endpointsBody(model: OpenRouterModelDef): string {
  const pricing = Object.entries(model.pricePerImage)
    .filter(([tier]) => tier !== 'default')
    .map(([tier, cost]) => ({ billable: 'output_image', unit: 'image', variant: tier.toLowerCase(), cost_usd: cost }));
  const slug = model.provider.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const endpoint = {
    provider_name: model.provider,
    provider_slug: slug,
    provider_tag: slug,
    supported_parameters: model.supported_parameters,
    supports_streaming: model.supports_streaming,
    allowed_passthrough_parameters: [],
    pricing: pricing.length > 0 ? pricing : [{ billable: 'output_image', unit: 'image', cost_usd: model.pricePerImage['default'] }],
  };
  return JSON.stringify({ data: { id: model.id, endpoints: [endpoint] } });
}

/** `GET /models`: chat models, or with `?output_modalities=image` the image models, in the Models API shape. */
export function modelsBody(chat: readonly string[], images: readonly OpenRouterModelDef[], imageOnly: boolean): string {
  const entry = (id: string, output: string[]) => ({ id, name: id, created: CREATED, architecture: { input_modalities: ['text'], output_modalities: output } });
  const data = imageOnly ? images.map((m) => entry(m.id, ['image'])) : chat.map((id) => entry(id, ['text']));
  return JSON.stringify({ data });
}
