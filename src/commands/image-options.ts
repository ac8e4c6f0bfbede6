/**
 * The image options /imagine and /edit share: their registration data, and reading them by their option names
 * (option-names.ts) into the service's request, parsed with its schemas (image-request.ts). Parsing is pure and
 * synchronous, so bad input is answered before anything is deferred or charged.
 */
import { ApplicationCommandOptionType, ApplicationIntegrationType, InteractionContextType, type APIApplicationCommandBasicOption } from 'discord.js';
import type { z } from 'zod';
import { UserFacingError } from '../errors.js';
import {
  ASPECT_RATIOS,
  RESOLUTIONS,
  EditFields,
  GenerateRequest,
  IMAGE_BACKGROUNDS,
  IMAGE_COMPLEXITIES,
  IMAGE_FORMATS,
  IMAGE_MODERATIONS,
  IMAGE_QUALITIES,
  IMAGE_STYLES,
  INPUT_FIDELITIES,
  MAX_IMAGES_PER_REQUEST,
  MAX_MODEL_NAME_LENGTH,
  MAX_SEED,
  OUTPUT_COMPRESSION,
} from '../core/image-request.js';
import { OPTION_NAMES } from './option-names.js';
import { issueDetail } from './issue-detail.js';
import type { OptionReader } from './option-reader.js';

/** Discord caps string options at 6000 characters, and enforces the max_length registered here; the service allows more. */
const MAX_PROMPT_OPTION_LENGTH = 6000;

const choices = (values: readonly string[]) => values.map((v) => ({ name: v, value: v }));
const longest = (values: readonly string[]): number => Math.max(...values.map((v) => v.length));

/** The image commands work in servers, in DMs with the bot, and (user-installed) in any DM or group. */
export const AVAILABLE_EVERYWHERE = {
  contexts: [InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel],
  integration_types: [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall],
};

export const PROMPT_OPTION = {
  type: ApplicationCommandOptionType.String,
  name: OPTION_NAMES.prompt,
  description: 'Describe the image: subject, style, composition, lighting',
  // `as const`: kept literal, so the commands' readers read the prompt as always given.
  required: true as const,
  max_length: MAX_PROMPT_OPTION_LENGTH,
} satisfies APIApplicationCommandBasicOption;

/** The optional image options, in the order members see them. */
export const IMAGE_OPTIONS = [
  {
    type: ApplicationCommandOptionType.String,
    name: OPTION_NAMES.model,
    description: 'Image model to use (defaults to the server default)',
    autocomplete: true,
    max_length: MAX_MODEL_NAME_LENGTH,
  },
  {
    type: ApplicationCommandOptionType.String,
    name: OPTION_NAMES.size,
    description: 'auto, 1024x1024, 1536x1024, 1024x1536 or WIDTHxHEIGHT',
    autocomplete: true,
    max_length: 20,
  },
  // Ratio and resolution instead of a size: autocomplete offers what the model makes (aspect-ratios.ts).
  {
    type: ApplicationCommandOptionType.String,
    name: OPTION_NAMES.ratio,
    description: 'Aspect ratio instead of a size: 1:1, 4:5, 2:3, 3:2, 16:9, 9:16 or 21:9',
    autocomplete: true,
    max_length: longest(ASPECT_RATIOS),
  },
  {
    type: ApplicationCommandOptionType.String,
    name: OPTION_NAMES.resolution,
    description: "1K, 2K or 4K: the model's nearest size at the ratio",
    autocomplete: true,
    max_length: longest(RESOLUTIONS),
  },
  // Quality, background, format, style and complexity depend on the model: autocomplete offers what it accepts.
  {
    type: ApplicationCommandOptionType.String,
    name: OPTION_NAMES.quality,
    description: 'Higher quality takes longer (the choices depend on the model)',
    autocomplete: true,
    max_length: longest(IMAGE_QUALITIES),
  },
  {
    type: ApplicationCommandOptionType.String,
    name: OPTION_NAMES.background,
    description: 'Transparent needs PNG, WebP, GIF or SVG, and a model that makes it',
    autocomplete: true,
    max_length: longest(IMAGE_BACKGROUNDS),
  },
  {
    type: ApplicationCommandOptionType.String,
    name: OPTION_NAMES.outputFormat,
    description: 'File format of the result (GIF and SVG with models that make them)',
    autocomplete: true,
    max_length: longest(IMAGE_FORMATS),
  },
  {
    type: ApplicationCommandOptionType.Integer,
    name: OPTION_NAMES.outputCompression,
    description: 'JPEG/WebP compression, 0–100',
    min_value: OUTPUT_COMPRESSION.min,
    max_value: OUTPUT_COMPRESSION.max,
  },
  {
    type: ApplicationCommandOptionType.Integer,
    name: OPTION_NAMES.n,
    description: `How many images (1–${MAX_IMAGES_PER_REQUEST}); each counts toward your quota`,
    min_value: 1,
    max_value: MAX_IMAGES_PER_REQUEST,
  },
  {
    type: ApplicationCommandOptionType.String,
    name: OPTION_NAMES.moderation,
    description: 'Content filter strength (low: age-restricted channels only)',
    choices: choices(IMAGE_MODERATIONS),
  },
  {
    type: ApplicationCommandOptionType.String,
    name: OPTION_NAMES.style,
    description: 'vivid or natural (dall-e-3)',
    autocomplete: true,
    max_length: longest(IMAGE_STYLES),
  },
  {
    type: ApplicationCommandOptionType.String,
    name: OPTION_NAMES.complexity,
    description: 'How much detail to draw: low, medium or high (gpt-image-2.6)',
    autocomplete: true,
    max_length: longest(IMAGE_COMPLEXITIES),
  },
  // Only models whose profile has seeds take one: autocomplete offers seeds for them alone, the service refuses the rest.
  {
    type: ApplicationCommandOptionType.Integer,
    name: OPTION_NAMES.seed,
    description: 'The same seed, prompt and settings make the same image (models with seeds)',
    autocomplete: true,
    min_value: 0,
    max_value: MAX_SEED,
  },
] satisfies APIApplicationCommandBasicOption[];

/** /edit's fidelity option. */
export const FIDELITY_OPTION = {
  type: ApplicationCommandOptionType.String,
  name: OPTION_NAMES.inputFidelity,
  description: 'How closely to keep the input (high keeps faces and details)',
  choices: choices(INPUT_FIDELITIES),
} satisfies APIApplicationCommandBasicOption;

/** The shared image options, as the commands' readers read them. */
type ImageOption = (typeof IMAGE_OPTIONS)[number];

/** The request fields read from string options, and from integer options. */
const STRING_FIELDS = ['model', 'size', 'ratio', 'resolution', 'quality', 'background', 'outputFormat', 'moderation', 'style', 'complexity'] as const;
const INTEGER_FIELDS = ['outputCompression', 'n', 'seed'] as const;

/** Reads and validates the shared image options; throws a member-facing error naming the bad field. */
export function parseImageOptions(read: OptionReader<ImageOption>, prompt: string): GenerateRequest {
  const set = [
    ...STRING_FIELDS.map((field) => [field, read.string(OPTION_NAMES[field])] as const),
    ...INTEGER_FIELDS.map((field) => [field, read.integer(OPTION_NAMES[field])] as const),
  ].filter(([, value]) => value !== undefined);
  return parseOptions(GenerateRequest, { prompt, ...Object.fromEntries(set) });
}

/** Reads and validates the fields only /edit has; throws a member-facing error naming the bad field. */
export function parseEditOptions(read: OptionReader<typeof FIDELITY_OPTION>): EditFields {
  const fidelity = read.string(OPTION_NAMES.inputFidelity);
  return parseOptions(EditFields, fidelity === undefined ? {} : { inputFidelity: fidelity });
}

function parseOptions<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path[0];
  // The error names the request field; the router words it as the option the member typed.
  throw new UserFacingError('input.invalid', { param: typeof field === 'string' ? field : 'option', detail: issueDetail(issue) });
}
