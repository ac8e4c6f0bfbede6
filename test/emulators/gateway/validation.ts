/**
 * The gateway's own checks of an image request, after auth and OpenAPI validation, turning it into an ImageJob:
 * the catalogue and settings of the emulator, then the rules of the model's family (model-rules.ts).
 * @see /work/shared/docs/image-gateway.md §2.2, §2.3, §2.6; gateway-interface.md (custom sizes, moderation on edits)
 */
import { checkEditInputs } from './edit-inputs.js';
import { isOutputFormat, type OutputFormat } from './images.js';
import { MAX_EMULATED_SEED, rulesFor, type ModelFamily, type ModelRules } from './model-rules.js';
import type { ErrorPreset, RecordedFile } from './types.js';

/** A request the emulator will answer successfully. */
export interface ImageJob {
  endpoint: 'generations' | 'edits';
  model: string;
  family: ModelFamily;
  prompt: string;
  n: number;
  width: number;
  height: number;
  /** The `size` echoed in the answer (`auto` resolved). */
  size: string;
  format: OutputFormat;
  transparent: boolean;
  quality: string;
  compression: number | undefined;
  stream: boolean;
  partialImages: number;
  responseFormat: 'b64_json' | 'url';
  inputImages: number;
  /** An edit's first `image` part (what an illustrated edit transforms). */
  reference: Buffer | undefined;
  /** An edit's mask part. */
  mask: Buffer | undefined;
  gptImage: boolean;
}

/** Why a request is refused: a preset, or a 400 invalid_request_error naming the field. */
export type Rejection =
  { kind: 'preset'; preset: ErrorPreset; param?: string; size?: string; model?: string } | { kind: 'invalid'; param: string; message: string; code?: string };

/** What the checks need to know about the emulator. */
export interface ValidationSettings {
  models: readonly string[];
  customSizes: boolean;
  unsupportedParams: readonly string[];
}

const MAX_SIDE = 3840;
const MAX_PIXELS = 3840 * 2160;
const MAX_RATIO = 3;

/** Checks one image request; `params` is the JSON body or the multipart text fields. */
export async function checkImageRequest(
  endpoint: ImageJob['endpoint'],
  params: Record<string, unknown>,
  files: RecordedFile[],
  settings: ValidationSettings,
): Promise<ImageJob | Rejection> {
  const model = checkModel(endpoint, params, settings);
  if ('kind' in model) return model;
  const { name, rules } = model;
  const input = checkPromptAndCount(params, rules);
  if ('kind' in input) return input;
  const size = checkSize(text(params['size']) || rules.defaultSize, rules, settings.customSizes);
  if ('kind' in size) return size;
  const refusedValue = checkValues(params, rules) ?? checkSeed(params['seed']);
  if (refusedValue) return refusedValue;
  const output = checkOutput(params, name, rules);
  if ('kind' in output) return output;
  const inputs = endpoint === 'edits' ? await checkEditInputs(files, rules.edits) : { count: 0, reference: undefined, mask: undefined };
  if ('param' in inputs) return invalid(inputs.param, inputs.message);
  return {
    endpoint,
    model: name,
    family: rules.family,
    gptImage: rules.gptImage,
    ...input,
    width: size.width,
    height: size.height,
    size: `${size.width}x${size.height}`,
    ...output,
    quality: qualityLabel(text(params['quality']), rules.gptImage),
    responseFormat: responseFormatOf(params, rules),
    inputImages: inputs.count,
    reference: inputs.reference,
    mask: inputs.mask,
  };
}

function checkModel(
  endpoint: ImageJob['endpoint'],
  params: Record<string, unknown>,
  settings: ValidationSettings,
): { name: string; rules: ModelRules } | Rejection {
  // new-api's distributor falls back to "dall-e" when the model is empty (image-gateway.md §4.2.2).
  const name = text(params['model']) || 'dall-e';
  if (!settings.models.includes(name)) return { kind: 'preset', preset: 'unknown_model', model: name };
  const rules = rulesFor(name);
  // GPT image models refuse response_format outright (image-gateway.md §2.6); dall-e models the GPT-only fields; a
  // model without seeds (every OpenAI one) does not know `seed`.
  const unknown = [...rules.refused, ...(rules.seeds ? [] : ['seed']), ...settings.unsupportedParams].find((p) => params[p] !== undefined);
  if (unknown) return { kind: 'preset', preset: 'unknown_parameter', param: unknown };
  if (endpoint === 'edits' && rules.edits === 'none')
    return invalid('model', `Invalid value: '${name}'. Image edits are only supported for 'dall-e-2' and the GPT image models.`);
  return { name, rules };
}

function checkPromptAndCount(params: Record<string, unknown>, rules: ModelRules): { prompt: string; n: number } | Rejection {
  const prompt = text(params['prompt']);
  if (!prompt) return invalid('prompt', "Missing required parameter: 'prompt'.");
  if (prompt.length > rules.maxPrompt) return { kind: 'preset', preset: 'prompt_too_long' };
  const n = integer(params['n']) ?? 1;
  if (n !== 1 && rules.maxN === 1) return invalid('n', 'You must provide n=1 for this model.');
  if (n < 1 || n > rules.maxN) return invalid('n', `Invalid value: ${n}. 'n' must be between 1 and ${rules.maxN}.`);
  return { prompt, n };
}

/** The enumerated parameters of the model's family (quality, output_format, style, moderation, …). */
function checkValues(params: Record<string, unknown>, rules: ModelRules): Rejection | undefined {
  for (const [param, allowed] of Object.entries(rules.values)) {
    const value = params[param];
    if (value === undefined || value === null || (typeof value === 'string' && allowed.includes(value))) continue;
    return invalid(param, `Invalid value: '${typeof value === 'string' ? value : JSON.stringify(value)}'. Supported values are: ${listOf(allowed)}.`);
  }
  return undefined;
}

/** A seed (only a model with seeds gets this far with one): an integer from 0 to MAX_EMULATED_SEED. */
function checkSeed(value: unknown): Rejection | undefined {
  if (value === undefined) return undefined;
  const seed = integer(value);
  if (seed !== undefined && seed >= 0 && seed <= MAX_EMULATED_SEED) return undefined;
  return invalid('seed', `Invalid value: ${JSON.stringify(value)}. 'seed' must be an integer between 0 and ${MAX_EMULATED_SEED}.`);
}

type OutputSettings = Pick<ImageJob, 'format' | 'compression' | 'transparent' | 'stream' | 'partialImages'>;

function checkOutput(params: Record<string, unknown>, model: string, rules: ModelRules): OutputSettings | Rejection {
  const format = text(params['output_format']) || 'png';
  if (!isOutputFormat(format)) return invalid('output_format', `Invalid value: '${format}'. Supported values are: 'png', 'jpeg', and 'webp'.`);
  const compression = integer(params['output_compression']);
  if (compression !== undefined && (compression < 0 || compression > 100))
    return invalid('output_compression', 'output_compression must be between 0 and 100.');
  if (compression !== undefined && format !== 'jpeg' && format !== 'webp')
    return invalid('output_compression', "output_compression is only supported for the 'jpeg' and 'webp' output formats.");
  const background = text(params['background']) || 'auto';
  if (background === 'transparent' && format === 'jpeg')
    return invalid('background', "Transparent background is not supported for the 'jpeg' output format; use 'png' or 'webp'.");
  if (background === 'transparent' && !rules.transparent) return invalid('background', `Transparent background is not supported for model '${model}'.`);
  const stream = params['stream'] === true || params['stream'] === 'true';
  const partialImages = integer(params['partial_images']) ?? 0;
  if (partialImages < 0 || partialImages > 3) return invalid('partial_images', 'partial_images must be between 0 and 3.');
  if (stream && !rules.stream) return invalid('stream', `Streaming is not supported for model '${model}'.`);
  return { format, compression, transparent: background === 'transparent', stream, partialImages };
}

function checkSize(size: string, rules: ModelRules, customSizes: boolean): { width: number; height: number } | Rejection {
  const parsed = parseSize(size);
  if (rules.sizes.includes(size)) return parsed ?? { width: 1024, height: 1024 };
  if (!rules.customSizes) return invalid('size', `Invalid value: '${size}'. Supported values are: ${listOf(rules.sizes)}.`);
  if (!customSizes || !parsed) return { kind: 'preset', preset: 'bad_size', size };
  const { width, height } = parsed;
  if (width % 16 !== 0 || height % 16 !== 0) return invalid('size', `Invalid value: '${size}'. Width and height must both be multiples of 16.`);
  if (Math.min(width, height) < 16 || Math.max(width, height) > MAX_SIDE)
    return invalid('size', `Invalid value: '${size}'. Each side must be between 16 and ${MAX_SIDE} pixels.`);
  if (Math.max(width, height) / Math.min(width, height) > MAX_RATIO)
    return invalid('size', `Invalid value: '${size}'. The aspect ratio must be between 1:3 and 3:1.`);
  if (width * height > MAX_PIXELS) return invalid('size', `Invalid value: '${size}'. The image may have at most ${MAX_PIXELS} pixels (3840x2160).`);
  return parsed;
}

/** `url` or `b64_json` as asked, else the model's default (url for the dall-e models). */
function responseFormatOf(params: Record<string, unknown>, rules: ModelRules): ImageJob['responseFormat'] {
  const asked = params['response_format'];
  if (asked === 'url' || asked === 'b64_json') return asked;
  return rules.responseFormat === 'url' ? 'url' : 'b64_json';
}

function invalid(param: string, message: string): Rejection {
  return { kind: 'invalid', param, message, code: 'invalid_value' };
}

/** OpenAI's way of listing values: `'a' and 'b'`, `'a', 'b', and 'c'`. */
function listOf(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  if (quoted.length <= 2) return quoted.join(' and ');
  return `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1) ?? ''}`;
}

function qualityLabel(quality: string, gptImage: boolean): string {
  if (!gptImage) return quality === 'hd' ? 'hd' : 'standard';
  return ['low', 'high', 'xhigh', 'max'].includes(quality) ? quality : 'medium';
}

function parseSize(size: string): { width: number; height: number } | undefined {
  const match = /^(\d{1,5})x(\d{1,5})$/.exec(size);
  if (!match) return undefined;
  return { width: Number(match[1]), height: Number(match[2]) };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** An integer from a JSON number or a multipart text field; undefined when absent or not an integer. */
function integer(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isInteger(n) ? n : undefined;
}
