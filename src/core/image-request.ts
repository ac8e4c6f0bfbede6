/**
 * What an image request may hold, written once: the value lists, the limits, the zod schemas of a generate request
 * and of the edit-only fields, and each field's name on the gateway's wire. The commands parse with it, the service
 * validates with it, the job archive stores with it and the gateway names its parameters with it. Pure (zod only).
 *
 * @see ../../../shared/docs/image-gateway.md §2.2, §2.3
 */
import { z } from 'zod';
import type { PhraseId } from './phrase.js';
import { SizeChoiceSchema } from './sizes.js';

/** Output image formats some model can produce (gif and svg: the gpt-image-2.6 family; model-profiles.ts says which). */
export const IMAGE_FORMATS = ['png', 'jpeg', 'webp', 'gif', 'svg'] as const;
/** The formats a reference image (or mask) may have. */
export const INPUT_IMAGE_FORMATS = ['png', 'jpeg', 'webp'] as const;
/** Qualities some model accepts: GPT image models auto–high (2.5 and 2.6 add xhigh and max), dall-e-3 standard and hd. */
export const IMAGE_QUALITIES = ['auto', 'low', 'medium', 'high', 'xhigh', 'max', 'standard', 'hd'] as const;
/** dall-e-3's `style`. */
export const IMAGE_STYLES = ['vivid', 'natural'] as const;
/** The gpt-image-2.6 family's `complexity`. */
export const IMAGE_COMPLEXITIES = ['low', 'medium', 'high'] as const;
/** Ratios members ask for instead of pixels (aspect-ratios.ts turns them into a size per model). */
export const ASPECT_RATIOS = ['1:1', '4:5', '2:3', '3:2', '16:9', '9:16', '21:9'] as const;
/** Resolutions, by the long side: 1K 1024, 2K 2048, 4K 4096 px (within the model's bounds). */
export const RESOLUTIONS = ['1K', '2K', '4K'] as const;
/** `transparent` needs png or webp output (image-rules). */
export const IMAGE_BACKGROUNDS = ['auto', 'opaque', 'transparent'] as const;
export const IMAGE_MODERATIONS = ['auto', 'low'] as const;
/** How closely an edit keeps its input (`high` keeps faces and details). */
export const INPUT_FIDELITIES = ['high', 'low'] as const;

/** The longest prompt the gateway takes, in code points (a surrogate pair is one character). */
export const MAX_PROMPT_LENGTH = 32_000;
/** The longest model name (also the option's registered max_length). */
export const MAX_MODEL_NAME_LENGTH = 100;
export const MAX_IMAGES_PER_REQUEST = 10;
export const MAX_EDIT_IMAGES = 16;
/** Each reference image must be smaller than this. */
export const MAX_EDIT_IMAGE_BYTES = 50 * 1024 * 1024;
/** The mask must be smaller than this. */
export const MAX_MASK_BYTES = 4 * 1024 * 1024;
/**
 * The largest seed: 2³¹−1, which every seeded model we know takes (ByteDance's Seedream takes at most 2147483647,
 * Stability's 4294967294, Flux and Stable Diffusion any 32-bit or larger integer), so one bound fits them all.
 */
export const MAX_SEED = 2_147_483_647;
/** Bounds of `outputCompression`, a percentage. */
export const OUTPUT_COMPRESSION = { min: 0, max: 100 } as const;

/** Characters as the gateway counts them: code points (a surrogate pair is one character). */
// eslint-disable-next-line @typescript-eslint/no-misused-spread -- the limit counts code points on purpose (a surrogate pair is one character), not graphemes
export const codePoints = (text: string): number => [...text].length;

/**
 * The one prompt rule: trimmed, not blank, at most {@link MAX_PROMPT_LENGTH} code points. Its refusals name their
 * phrase (phrase.ts), which the commands show the member in their language.
 */
export const Prompt = z
  .string()
  .trim()
  .min(1, { error: 'detail.prompt.empty' satisfies PhraseId })
  .refine((prompt) => codePoints(prompt) <= MAX_PROMPT_LENGTH, { error: 'detail.prompt.tooLong' satisfies PhraseId, params: { max: MAX_PROMPT_LENGTH } });

/**
 * A text-to-image request: only what the member set, besides the prompt. `size` is `auto` or a parsed size (read
 * from `WIDTHxHEIGHT` text where it enters, sizes.ts); its bounds and the pairings (compression only with jpeg or webp, transparency not with
 * jpeg) are image-rules' to check, with the reasons members read.
 */
export const GenerateRequest = z.object({
  prompt: Prompt,
  /** A model of the gateway's catalogue; the configured default when absent. */
  model: z.string().trim().min(1).max(MAX_MODEL_NAME_LENGTH).optional(),
  size: SizeChoiceSchema.optional(),
  /** Instead of `size` (not with it): the ratio, and the resolution, turned into a size per model. */
  ratio: z.enum(ASPECT_RATIOS).optional(),
  resolution: z.enum(RESOLUTIONS).optional(),
  quality: z.enum(IMAGE_QUALITIES).optional(),
  background: z.enum(IMAGE_BACKGROUNDS).optional(),
  outputFormat: z.enum(IMAGE_FORMATS).optional(),
  outputCompression: z.number().int().min(OUTPUT_COMPRESSION.min).max(OUTPUT_COMPRESSION.max).optional(),
  /** Number of images. */
  n: z.number().int().min(1).max(MAX_IMAGES_PER_REQUEST).optional(),
  moderation: z.enum(IMAGE_MODERATIONS).optional(),
  style: z.enum(IMAGE_STYLES).optional(),
  complexity: z.enum(IMAGE_COMPLEXITIES).optional(),
  /** The same seed, prompt and settings make the same image again, on a model whose profile has seeds. */
  seed: z.int().min(0).max(MAX_SEED).optional(),
});
export type GenerateRequest = z.infer<typeof GenerateRequest>;

/** The fields an edit adds besides its images and mask (bytes, checked by image-rules). */
export const EditFields = z.object({ inputFidelity: z.enum(INPUT_FIDELITIES).optional() });
export type EditFields = z.infer<typeof EditFields>;

/** Every field of a request, an edit's included. */
export type RequestField = keyof GenerateRequest | keyof EditFields | 'images' | 'mask';

/** Request fields → the gateway's parameter names. The images go as `image[]` parts of the multipart body. */
export const WIRE_NAMES = {
  prompt: 'prompt',
  model: 'model',
  size: 'size',
  ratio: 'aspect_ratio',
  resolution: 'resolution',
  quality: 'quality',
  background: 'background',
  outputFormat: 'output_format',
  outputCompression: 'output_compression',
  n: 'n',
  moderation: 'moderation',
  style: 'style',
  complexity: 'complexity',
  seed: 'seed',
  inputFidelity: 'input_fidelity',
  images: 'image',
  mask: 'mask',
} as const satisfies Record<RequestField, string>;

const FIELD_OF_WIRE_NAME = new Map<string, RequestField>(Object.entries(WIRE_NAMES).map(([field, wire]) => [wire, field as RequestField]));

/** The request field a gateway parameter name stands for; undefined for a name that is no field's (`partial_images`). */
export function fieldOfWireName(name: string): RequestField | undefined {
  return FIELD_OF_WIRE_NAME.get(name);
}
