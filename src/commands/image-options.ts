/**
 * The image options /imagine and /edit share: their registration data and their parsing into a typed request.
 * Parsing is pure and synchronous, so bad input is answered before anything is deferred or charged.
 */
import {
  ApplicationCommandOptionType,
  ApplicationIntegrationType,
  InteractionContextType,
  type APIApplicationCommandBasicOption,
  type ChatInputCommandInteraction,
} from 'discord.js';
import { z } from 'zod';
import { UserFacingError } from '../errors.js';
import { MAX_IMAGES_PER_REQUEST } from '../service/image-rules.js';
import type { GenerateRequest } from '../service/ports.js';

/** Discord caps string options at 6000 characters; the gateway allows more, so this is the binding limit. */
export const MAX_PROMPT_OPTION_LENGTH = 6000;

const choices = (values: readonly string[]) => values.map((v) => ({ name: v, value: v }));

/** The image commands work in servers, in DMs with the bot, and (user-installed) in any DM or group. */
export const AVAILABLE_EVERYWHERE = {
  contexts: [InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel],
  integration_types: [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall],
};

export const PROMPT_OPTION = {
  type: ApplicationCommandOptionType.String,
  name: 'prompt',
  description: 'Describe the image: subject, style, composition, lighting',
  required: true,
  max_length: MAX_PROMPT_OPTION_LENGTH,
} satisfies APIApplicationCommandBasicOption;

/** The optional image options, in the order members see them. */
export const IMAGE_OPTIONS = [
  {
    type: ApplicationCommandOptionType.String,
    name: 'model',
    description: 'Image model to use (defaults to the server default)',
    autocomplete: true,
    max_length: 100,
  },
  {
    type: ApplicationCommandOptionType.String,
    name: 'size',
    description: 'auto, 1024x1024, 1536x1024, 1024x1536 or WIDTHxHEIGHT',
    autocomplete: true,
    max_length: 20,
  },
  {
    type: ApplicationCommandOptionType.String,
    name: 'quality',
    description: 'Higher quality takes longer',
    choices: choices(['auto', 'low', 'medium', 'high']),
  },
  {
    type: ApplicationCommandOptionType.String,
    name: 'background',
    description: 'Transparent needs PNG or WebP',
    choices: choices(['auto', 'opaque', 'transparent']),
  },
  { type: ApplicationCommandOptionType.String, name: 'format', description: 'File format of the result', choices: choices(['png', 'jpeg', 'webp']) },
  { type: ApplicationCommandOptionType.Integer, name: 'compression', description: 'JPEG/WebP compression, 0–100', min_value: 0, max_value: 100 },
  {
    type: ApplicationCommandOptionType.Integer,
    name: 'count',
    description: `How many images (1–${MAX_IMAGES_PER_REQUEST}); each counts toward your quota`,
    min_value: 1,
    max_value: MAX_IMAGES_PER_REQUEST,
  },
  {
    type: ApplicationCommandOptionType.String,
    name: 'moderation',
    description: 'Content filter strength (low: age-restricted channels only)',
    choices: choices(['auto', 'low']),
  },
] satisfies APIApplicationCommandBasicOption[];

/** The typed request an image command produces. */
const ImageCommandRequest = z.object({
  prompt: z.string().trim().min(1, { error: 'the prompt is empty' }).max(MAX_PROMPT_OPTION_LENGTH),
  model: z.string().trim().min(1).max(100).optional(),
  size: z.string().trim().toLowerCase().optional(),
  quality: z.enum(['auto', 'low', 'medium', 'high']).optional(),
  background: z.enum(['auto', 'opaque', 'transparent']).optional(),
  outputFormat: z.enum(['png', 'jpeg', 'webp']).optional(),
  outputCompression: z.number().int().min(0).max(100).optional(),
  n: z.number().int().min(1).max(MAX_IMAGES_PER_REQUEST).optional(),
  moderation: z.enum(['auto', 'low']).optional(),
});
type ImageCommandRequest = z.infer<typeof ImageCommandRequest>;

/** The subset of an interaction's option reader these parsers use. */
type OptionReader = Pick<ChatInputCommandInteraction['options'], 'getString' | 'getInteger'>;

/** Reads and validates the shared image options; throws a member-facing error naming the bad option. */
export function parseImageOptions(options: OptionReader, prompt: string): GenerateRequest {
  const raw = {
    prompt,
    model: options.getString('model') ?? undefined,
    size: options.getString('size') ?? undefined,
    quality: options.getString('quality') ?? undefined,
    background: options.getString('background') ?? undefined,
    outputFormat: options.getString('format') ?? undefined,
    outputCompression: options.getInteger('compression') ?? undefined,
    n: options.getInteger('count') ?? undefined,
    moderation: options.getString('moderation') ?? undefined,
  };
  const parsed = ImageCommandRequest.safeParse(dropUndefined(raw));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserFacingError('input.invalid', { param: OPTION_NAMES[String(issue?.path[0])] ?? 'option', detail: issue?.message });
  }
  return parsed.data;
}

/** Request fields → the option names members typed. */
const OPTION_NAMES: Record<string, string> = {
  prompt: 'prompt',
  model: 'model',
  size: 'size',
  quality: 'quality',
  background: 'background',
  outputFormat: 'format',
  outputCompression: 'compression',
  n: 'count',
  moderation: 'moderation',
  inputFidelity: 'fidelity',
  images: 'image',
  mask: 'mask',
};

function dropUndefined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
