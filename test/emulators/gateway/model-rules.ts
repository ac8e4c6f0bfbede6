/**
 * What each real image model accepts, one table per family, as OpenAI documents them (2026-11). The emulator plays
 * these models; it does not read the bot's own profiles (src/), which are tested against it.
 * @see /work/shared/docs/image-gateway.md §2.2, §2.3, §2.7
 */

/** The model families the emulator knows; `gpt-image`, `flux` and `other` are the permissive rest of the catalogue. */
export type ModelFamily = 'gpt-image-1' | 'gpt-image-2' | 'gpt-image-2.5' | 'gpt-image-2.6' | 'dall-e-3' | 'dall-e-2' | 'gpt-image' | 'flux' | 'other';

/** One family's rules. */
export interface ModelRules {
  family: ModelFamily;
  /** GPT image answer shape: always b64_json, echo fields and `usage`. */
  gptImage: boolean;
  /** Named sizes accepted (with `auto` where the model sizes itself). */
  sizes: readonly string[];
  /** The size when none is asked. */
  defaultSize: string;
  /**
   * Custom `WIDTHxHEIGHT` (both sides multiples of 16, 1:3 to 3:1, at most 3840x2160 pixels) as the emulator's
   * `customSizes` setting says, or never. gpt-image-2 and later take them; the emulator lets gpt-image-1 take them
   * too, as the gateway doc does, and `customSizes: false` plays a gateway that refuses them for every model.
   */
  customSizes: boolean;
  /** Enumerated parameters and the values the model takes; a parameter not listed here is not checked. */
  values: Readonly<Record<string, readonly string[]>>;
  /** Parameters the model does not know: 400 unknown_parameter. */
  refused: readonly string[];
  /**
   * Whether the model takes `seed`, an integer 0 to {@link MAX_EMULATED_SEED} (400 invalid_value otherwise); a model
   * without seeds refuses the parameter (400 unknown_parameter). OpenAI's image models have none.
   */
  seeds: boolean;
  transparent: boolean;
  stream: boolean;
  maxN: number;
  maxPrompt: number;
  /** GPT image edits (up to 16 png/jpeg/webp images), dall-e-2's (one square RGBA PNG under 4 MB), or none. */
  edits: 'gpt' | 'dall-e-2' | 'none';
  /** `response_format`: refused, or the default when absent. */
  responseFormat: 'refused' | 'url' | 'b64_json';
}

const GPT_SIZES = ['1024x1024', '1536x1024', '1024x1536', 'auto'];
const GPT_FORMATS = ['png', 'jpeg', 'webp'];
const GPT_QUALITIES = ['auto', 'low', 'medium', 'high'];
const LEVELS = ['low', 'medium', 'high'];

/** gpt-image-1, gpt-image-1-mini, gpt-image-1.5, chatgpt-image-latest. */
const GPT_IMAGE_1: ModelRules = {
  family: 'gpt-image-1',
  gptImage: true,
  sizes: GPT_SIZES,
  defaultSize: 'auto',
  customSizes: true,
  values: {
    quality: GPT_QUALITIES,
    output_format: GPT_FORMATS,
    moderation: ['auto', 'low'],
    input_fidelity: ['high', 'low'],
  },
  // complexity is the 2.6 family's own parameter.
  refused: ['response_format', 'complexity'],
  seeds: false,
  transparent: true,
  stream: true,
  maxN: 10,
  maxPrompt: 32000,
  edits: 'gpt',
  responseFormat: 'refused',
};

/** gpt-image-2 (and its snapshots): no transparent background since 2026-09-30. */
const GPT_IMAGE_2: ModelRules = { ...GPT_IMAGE_1, family: 'gpt-image-2', transparent: false };

/** gpt-image-2.5 and gpt-image-2.5-*: two more qualities, transparency back. */
const GPT_IMAGE_2_5: ModelRules = {
  ...GPT_IMAGE_2,
  family: 'gpt-image-2.5',
  values: { ...GPT_IMAGE_2.values, quality: [...GPT_QUALITIES, 'xhigh', 'max'] },
  transparent: true,
};

/** gpt-image-2.6*: GIF and SVG output and a `complexity` parameter. */
const GPT_IMAGE_2_6: ModelRules = {
  ...GPT_IMAGE_2_5,
  family: 'gpt-image-2.6',
  values: { ...GPT_IMAGE_2_5.values, output_format: [...GPT_FORMATS, 'gif', 'svg'], complexity: LEVELS },
  refused: ['response_format'],
};

// The GPT-image-only output parameters, which the dall-e models do not know.
const GPT_ONLY = ['output_format', 'output_compression', 'background', 'moderation', 'input_fidelity', 'complexity'];

const DALL_E_3: ModelRules = {
  family: 'dall-e-3',
  gptImage: false,
  sizes: ['1024x1024', '1792x1024', '1024x1792'],
  defaultSize: '1024x1024',
  customSizes: false,
  values: { quality: ['standard', 'hd'], style: ['vivid', 'natural'], response_format: ['url', 'b64_json'] },
  refused: GPT_ONLY,
  seeds: false,
  transparent: false,
  stream: false,
  maxN: 1,
  maxPrompt: 4000,
  edits: 'none',
  responseFormat: 'url',
};

const DALL_E_2: ModelRules = {
  ...DALL_E_3,
  family: 'dall-e-2',
  sizes: ['256x256', '512x512', '1024x1024'],
  values: { quality: ['standard'], response_format: ['url', 'b64_json'] },
  refused: [...GPT_ONLY, 'style'],
  maxN: 10,
  maxPrompt: 1000,
  edits: 'dall-e-2',
};

/** Any other GPT image model: the GPT answer shape, otherwise permissive (the emulator before per-model rules). */
const GPT_IMAGE_OTHER: ModelRules = { ...GPT_IMAGE_1, family: 'gpt-image', values: { output_format: GPT_FORMATS }, refused: ['response_format'] };

/** Any other model: permissive; b64_json unless url is asked, no streaming. */
const OTHER: ModelRules = {
  ...GPT_IMAGE_OTHER,
  family: 'other',
  gptImage: false,
  sizes: GPT_SIZES.filter((s) => s !== 'auto'),
  defaultSize: '1024x1024',
  refused: [],
  stream: false,
  responseFormat: 'b64_json',
};

/** Flux models (`flux*`, as a relay lists Black Forest Labs' models): as any other model, and they take a seed. */
const FLUX: ModelRules = { ...OTHER, family: 'flux', seeds: true };

/** The largest seed the emulated models take (a 32-bit unsigned integer). */
export const MAX_EMULATED_SEED = 4_294_967_295;

// First match wins: 2.6 and 2.5 before 2, the snapshots (`-2026-04-21`) with their model.
const FAMILIES: readonly [RegExp, ModelRules][] = [
  [/^gpt-image-2\.6/, GPT_IMAGE_2_6],
  [/^gpt-image-2\.5(-|$)/, GPT_IMAGE_2_5],
  [/^gpt-image-2(-|$)/, GPT_IMAGE_2],
  [/^gpt-image-1(\.5|-mini)?(-|$)/, GPT_IMAGE_1],
  [/^chatgpt-image-latest$/, GPT_IMAGE_1],
  [/^dall-e-3$/, DALL_E_3],
  [/^dall-e-2$/, DALL_E_2],
  [/^(gpt-image|chatgpt-image)/, GPT_IMAGE_OTHER],
  [/^flux/, FLUX],
];

/** The rules of a model by its name. */
export function rulesFor(model: string): ModelRules {
  return FAMILIES.find(([pattern]) => pattern.test(model))?.[1] ?? OTHER;
}

/**
 * Values newer than the stored OpenAI spec (it predates gpt-image-2.5 and 2.6), by parameter: the spec check
 * sees the nearest value it knows instead, for the families that take them; any other model is still flagged.
 */
const NEWER_VALUES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  quality: { xhigh: 'high', max: 'high' },
  output_format: { gif: 'png', svg: 'png' },
};

/** Parameters newer than the stored spec; it does not forbid unknown properties, so they are flagged here. */
const NEWER_PARAMS = ['complexity'];

/**
 * The body the stored spec checks for a model (its family's newer values replaced by ones the spec knows), and
 * the newer parameters a model outside their family sent, which the spec alone would let through.
 */
export function specView(body: Record<string, unknown>, model: string): { subject: Record<string, unknown>; unknown: string[] } {
  const { values } = rulesFor(model);
  const subject = { ...body };
  for (const [param, nearest] of Object.entries(NEWER_VALUES)) {
    const value = subject[param];
    if (typeof value !== 'string' || !values[param]?.includes(value)) continue;
    const stand = nearest[value];
    if (stand !== undefined) subject[param] = stand;
  }
  const unknown = NEWER_PARAMS.filter((param) => body[param] !== undefined && values[param] === undefined);
  return { subject, unknown };
}
