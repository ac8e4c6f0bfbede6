/**
 * What each image model accepts: its capability profile (sizes, qualities, formats, backgrounds, edits, streaming,
 * images per request, extra options, whether to ask for `response_format=b64_json`). Built-in profiles cover
 * OpenAI's families as of 2026-11; any other model gets the permissive generic profile, which sends what the member
 * asked and lets the gateway decide. Operators override or add profiles in MODEL_PROFILES_FILE (parsed here with
 * zod, read by config.ts). The service validates requests with them (profile-rules.ts), the commands offer only
 * their values, and the gateway sends only what they accept. Pure (zod only).
 *
 * @see docs/gateways.md#models
 */
import { z } from 'zod';
import {
  IMAGE_BACKGROUNDS,
  IMAGE_COMPLEXITIES,
  IMAGE_FORMATS,
  IMAGE_QUALITIES,
  IMAGE_STYLES,
  MAX_EDIT_IMAGES,
  MAX_IMAGES_PER_REQUEST,
  MAX_PROMPT_LENGTH,
} from './image-request.js';
import { ModelPrices } from './cost.js';
import { type Size, SIZE_BOUNDS, SizeSchema, STANDARD_SIZES } from './sizes.js';

/** A listed size: written WIDTHxHEIGHT in a profile file, parsed once here. */
const ListedSize = z.union([
  z.strictObject({ width: z.int().min(1), height: z.int().min(1) }),
  z
    .string()
    .regex(/^\d{1,5}x\d{1,5}$/, { error: 'expects sizes written WIDTHxHEIGHT, such as 1024x1024' })
    .transform((text) => SizeSchema.parse(text)),
]);

const px = (width: number, height: number): Size => ({ width, height });

/** Custom WIDTHxHEIGHT sizes a model takes beyond its listed ones. */
const SizeRule = z.strictObject({
  /** Both sides must be multiples of this. */
  multiple: z.int().min(1),
  minSide: z.int().min(1),
  maxSide: z.int().min(1),
  /** Long side to short side, at most. */
  maxRatio: z.number().min(1),
  maxPixels: z.int().min(1),
  /** Sizes with more pixels than this work but are experimental (autocomplete says so). */
  experimentalAbovePixels: z.int().min(1).optional(),
});
export type SizeRule = z.infer<typeof SizeRule>;

const Edits = z.strictObject({
  /** Reference images per edit. */
  maxImages: z.int().min(1).max(MAX_EDIT_IMAGES),
  mask: z.boolean(),
  /** Whether `input_fidelity` is accepted. */
  inputFidelity: z.boolean(),
  /** dall-e-2: the reference must be one square PNG. */
  squarePng: z.boolean(),
});

/** One model's profile. An empty value list means the model has no such parameter (it is never sent). */
export const ModelProfile = z.strictObject({
  /** Sizes offered and always accepted. */
  sizes: z.array(ListedSize).min(1),
  /** Custom sizes beyond `sizes`; null: only the listed ones. */
  customSizes: SizeRule.nullable(),
  /** Ratios the model's dialect takes itself (OpenRouter's `aspect_ratio`); absent: ratios become sizes. */
  aspectRatios: z.array(z.string().max(16)).max(32).optional(),
  /** Resolutions the model's dialect takes itself (OpenRouter's `resolution`). */
  resolutions: z.array(z.string().max(16)).max(16).optional(),
  /** Whether the model takes `size: auto` (otherwise auto means: send no size, the model's default). */
  autoSize: z.boolean(),
  /** `auto` is always accepted: sent when listed, otherwise left out (the model's default). */
  qualities: z.array(z.enum(IMAGE_QUALITIES)),
  /** Empty: the model makes PNG and takes no `output_format`. */
  formats: z.array(z.enum(IMAGE_FORMATS)),
  /** Whether `output_compression` is accepted (with jpeg or webp). */
  compression: z.boolean(),
  backgrounds: z.array(z.enum(IMAGE_BACKGROUNDS)),
  /** Whether `moderation` is accepted. */
  moderation: z.boolean(),
  styles: z.array(z.enum(IMAGE_STYLES)),
  complexities: z.array(z.enum(IMAGE_COMPLEXITIES)),
  /**
   * Whether the model takes `seed` (the same seed makes the same image again). Optional, so files written before it
   * stay valid: absent means no seeds (OpenAI's image API has none, and the generic profile promises none).
   */
  seeds: z.boolean().optional(),
  /** null: the model cannot edit. */
  edits: Edits.nullable(),
  /** Whether the model streams partial images. */
  streaming: z.boolean(),
  /** Images per request, at most. */
  maxN: z.int().min(1).max(MAX_IMAGES_PER_REQUEST),
  /** Send `response_format=b64_json` (dall-e answers with links otherwise; GPT image models refuse the field). */
  responseFormat: z.boolean(),
  /** The longest prompt, in characters. */
  maxPromptLength: z.int().min(1).max(MAX_PROMPT_LENGTH),
  /** What the model costs (cost.ts), for estimates where the gateway reports no cost; absent: no estimate. */
  prices: ModelPrices.optional(),
});
export type ModelProfile = z.infer<typeof ModelProfile>;

/** The standard sizes every GPT image model takes. */
const GPT_SIZES = [...STANDARD_SIZES];
const GPT_QUALITIES = ['auto', 'low', 'medium', 'high'] as const;
const RASTER = ['png', 'jpeg', 'webp'] as const;

/** gpt-image-2's custom sizes: sides multiples of 16, 1:3 to 3:1, at most 3840x2160 (above 2560x1440 experimental). */
const GPT_IMAGE_2_SIZES: SizeRule = { ...SIZE_BOUNDS, experimentalAbovePixels: 2560 * 1440 };

const GPT_IMAGE_1: ModelProfile = {
  sizes: GPT_SIZES,
  customSizes: null,
  autoSize: true,
  qualities: [...GPT_QUALITIES],
  formats: [...RASTER],
  compression: true,
  backgrounds: ['auto', 'opaque', 'transparent'],
  moderation: true,
  styles: [],
  complexities: [],
  edits: { maxImages: MAX_EDIT_IMAGES, mask: true, inputFidelity: true, squarePng: false },
  streaming: true,
  maxN: MAX_IMAGES_PER_REQUEST,
  responseFormat: false,
  maxPromptLength: MAX_PROMPT_LENGTH,
};

/** gpt-image-2 refuses transparent backgrounds since 2026-09-30. */
const GPT_IMAGE_2: ModelProfile = { ...GPT_IMAGE_1, customSizes: GPT_IMAGE_2_SIZES, backgrounds: ['auto', 'opaque'] };
const GPT_IMAGE_2_5: ModelProfile = { ...GPT_IMAGE_2, qualities: [...GPT_QUALITIES, 'xhigh', 'max'], backgrounds: ['auto', 'opaque', 'transparent'] };
const GPT_IMAGE_2_6: ModelProfile = { ...GPT_IMAGE_2_5, formats: [...RASTER, 'gif', 'svg'], complexities: [...IMAGE_COMPLEXITIES] };

const DALL_E_3: ModelProfile = {
  sizes: [px(1024, 1024), px(1792, 1024), px(1024, 1792)],
  customSizes: null,
  autoSize: false,
  qualities: ['standard', 'hd'],
  formats: [],
  compression: false,
  backgrounds: [],
  moderation: false,
  styles: [...IMAGE_STYLES],
  complexities: [],
  edits: null,
  streaming: false,
  maxN: 1,
  responseFormat: true,
  maxPromptLength: 4_000,
};

const DALL_E_2: ModelProfile = {
  ...DALL_E_3,
  sizes: [px(256, 256), px(512, 512), px(1024, 1024)],
  qualities: [],
  styles: [],
  edits: { maxImages: 1, mask: true, inputFidelity: false, squarePng: true },
  maxN: MAX_IMAGES_PER_REQUEST,
  maxPromptLength: 1_000,
};

/**
 * Any other model: everything the bot can ask for is sent, and the gateway decides. Except a seed: many models
 * ignore one without a word, so seeds are promised only where a profile says the model takes them.
 */
const GENERIC: ModelProfile = {
  sizes: GPT_SIZES,
  customSizes: { ...SIZE_BOUNDS },
  autoSize: true,
  qualities: [...IMAGE_QUALITIES],
  formats: [...IMAGE_FORMATS],
  compression: true,
  backgrounds: [...IMAGE_BACKGROUNDS],
  moderation: true,
  styles: [...IMAGE_STYLES],
  complexities: [...IMAGE_COMPLEXITIES],
  edits: { maxImages: MAX_EDIT_IMAGES, mask: true, inputFidelity: true, squarePng: false },
  streaming: true,
  maxN: MAX_IMAGES_PER_REQUEST,
  responseFormat: false,
  maxPromptLength: MAX_PROMPT_LENGTH,
};

/** The built-in profiles by name, in matching order (the first whose pattern matches a model id is its profile). */
export const BUILT_IN_PROFILES = {
  'gpt-image-2.6': { profile: GPT_IMAGE_2_6, matches: /^gpt-image-2\.6(?:-|$)/ },
  'gpt-image-2.5': { profile: GPT_IMAGE_2_5, matches: /^gpt-image-2\.5(?:-|$)/ },
  'gpt-image-2': { profile: GPT_IMAGE_2, matches: /^gpt-image-2(?:-|$)/ },
  'gpt-image-1': { profile: GPT_IMAGE_1, matches: /^(?:gpt-image-1(?:\.\d+)?(?:-|$)|chatgpt-image)/ },
  'dall-e-3': { profile: DALL_E_3, matches: /^dall-e-3$/ },
  'dall-e-2': { profile: DALL_E_2, matches: /^dall-e-2$/ },
  generic: { profile: GENERIC, matches: /(?:)/ },
} as const satisfies Record<string, { profile: ModelProfile; matches: RegExp }>;
export type BuiltInProfileName = keyof typeof BUILT_IN_PROFILES;
const BUILT_IN_NAMES = Object.keys(BUILT_IN_PROFILES) as [BuiltInProfileName, ...BuiltInProfileName[]];

/**
 * OpenAI's published prices (USD per million tokens) of the models whose prices are known (image models, and the chat
 * models prompt help uses); any other model's cost
 * is estimated only from prices an operator sets in MODEL_PROFILES_FILE (or reported by the gateway).
 */
const BUILT_IN_PRICES: Readonly<Record<string, ModelPrices>> = {
  'gpt-image-1': { inputTextPerMillion: 5, inputImagePerMillion: 10, outputPerMillion: 40 },
  'gpt-image-1-mini': { inputTextPerMillion: 2, inputImagePerMillion: 2.5, outputPerMillion: 8 },
  // Chat models prompt help uses (chat-cost.ts): text in and out.
  'gpt-4o-mini': { inputTextPerMillion: 0.15, outputPerMillion: 0.6 },
  'gpt-4o': { inputTextPerMillion: 2.5, outputPerMillion: 10 },
  'gpt-4.1-nano': { inputTextPerMillion: 0.1, outputPerMillion: 0.4 },
  'gpt-4.1-mini': { inputTextPerMillion: 0.4, outputPerMillion: 1.6 },
  'gpt-4.1': { inputTextPerMillion: 2, outputPerMillion: 8 },
};

/** A model's profile, and where it came from (a built-in name, or the file's entry). */
export interface ResolvedProfile {
  profile: ModelProfile;
  /** `gpt-image-2`, `generic`, or `MODEL_PROFILES_FILE "my-model-*"`. */
  source: string;
}

/**
 * One entry of MODEL_PROFILES_FILE: the fields it changes, over `extends` (a built-in profile) or, without it, over
 * the built-in profile of the model it applies to.
 */
const ProfileEntry = ModelProfile.partial()
  .extend({ extends: z.enum(BUILT_IN_NAMES).optional() })
  .strict();
type ProfileEntry = z.infer<typeof ProfileEntry>;

/**
 * MODEL_PROFILES_FILE's content: model ids or patterns (`*` matches any characters) to entries. An exact id wins
 * over a pattern; patterns are tried in the file's order.
 */
export const ProfilesFile = z.record(z.string().min(1).max(200), ProfileEntry);
export type ProfilesFile = z.infer<typeof ProfilesFile>;

/** A relay's provider prefix (`openai/gpt-image-2`) does not change the model. */
const bareId = (model: string): string => model.slice(model.lastIndexOf('/') + 1).toLowerCase();

/** The built-in profile a model id gets. */
export function builtInProfileName(model: string): BuiltInProfileName {
  const id = bareId(model);
  return BUILT_IN_NAMES.find((name) => BUILT_IN_PROFILES[name].matches.test(id)) ?? 'generic';
}

const escapeRegExp = (text: string): string => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/**
 * The profiles in use: the built-in ones, under those the gateway's catalogue describes (OpenRouter's), under the
 * operator's file.
 */
export class ModelProfiles {
  readonly #exact: ReadonlyMap<string, ProfileEntry>;
  readonly #patterns: readonly { key: string; pattern: RegExp; entry: ProfileEntry }[];
  #learned: ReadonlyMap<string, ModelProfile> = new Map();

  constructor(file: ProfilesFile = {}) {
    const entries = Object.entries(file);
    this.#exact = new Map(entries.filter(([key]) => !key.includes('*')));
    this.#patterns = entries
      .filter(([key]) => key.includes('*'))
      .map(([key, entry]) => ({ key, entry, pattern: new RegExp(`^${key.split('*').map(escapeRegExp).join('.*')}$`, 'i') }));
  }

  /** Takes the profiles the gateway's catalogue describes (each listing replaces the last). */
  learn(profiles: ReadonlyMap<string, ModelProfile>): void {
    this.#learned = profiles;
  }

  /** The profile of `model`. */
  of(model: string): ResolvedProfile {
    const exact = this.#exact.get(model);
    const matched = exact ? { key: model, entry: exact } : this.#patterns.find((p) => p.pattern.test(model));
    const builtIn = builtInProfileName(model);
    const learned = this.#learned.get(model);
    const prices = learned?.prices ?? BUILT_IN_PRICES[bareId(model)];
    const own = matched?.entry.extends ? undefined : learned;
    const base = { ...(own ?? BUILT_IN_PROFILES[matched?.entry.extends ?? builtIn].profile), ...(prices ? { prices } : {}) };
    if (!matched) return { profile: base, source: learned ? 'the gateway catalogue' : builtIn };
    const { extends: _extends, ...changes } = matched.entry;
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<ModelProfile>;
    return { profile: { ...base, ...defined }, source: `MODEL_PROFILES_FILE "${matched.key}"` };
  }
}
