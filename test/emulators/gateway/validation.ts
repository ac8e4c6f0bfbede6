/**
 * The gateway's own checks of an image request, after auth and OpenAPI validation, turning it into an ImageJob.
 * @see /work/shared/docs/image-gateway.md §2.2, §2.3, §2.6; gateway-interface.md (custom sizes, moderation on edits)
 */
import type { ErrorPreset, RecordedFile } from './types.js';
import { detectFormat, readImageInfo, type ImageFormat } from './images.js';

/** A request the emulator will answer successfully. */
export interface ImageJob {
  endpoint: 'generations' | 'edits';
  model: string;
  prompt: string;
  n: number;
  width: number;
  height: number;
  /** The `size` echoed in the answer (`auto` resolved). */
  size: string;
  format: ImageFormat;
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

const GPT_SIZES = ['1024x1024', '1536x1024', '1024x1536'];
const DALLE_SIZES: Record<string, string[]> = { 'dall-e-2': ['256x256', '512x512', '1024x1024'], 'dall-e-3': ['1024x1024', '1792x1024', '1024x1792'] };
const MAX_SIDE = 3840;
const MAX_PIXELS = 3840 * 2160;
const MAX_RATIO = 3;

/** True for the GPT image family, which rejects response_format and always answers b64_json. */
export function isGptImageModel(model: string): boolean {
  return model.startsWith('gpt-image') || model.startsWith('chatgpt-image');
}

/** Checks one image request; `params` is the JSON body or the multipart text fields. */
export async function checkImageRequest(
  endpoint: ImageJob['endpoint'],
  params: Record<string, unknown>,
  files: RecordedFile[],
  settings: ValidationSettings,
): Promise<ImageJob | Rejection> {
  const model = checkModel(params, settings);
  if ('kind' in model) return model;
  const input = checkPromptAndCount(params, model.name);
  if ('kind' in input) return input;
  const size = checkSize(text(params['size']) || (model.gptImage ? 'auto' : '1024x1024'), model.name, settings.customSizes);
  if ('kind' in size) return size;
  const output = checkOutput(params, model.name, model.gptImage);
  if ('kind' in output) return output;
  const inputs = endpoint === 'edits' ? await checkEditFiles(files) : { count: 0, reference: undefined, mask: undefined };
  if ('kind' in inputs) return inputs;
  return {
    endpoint,
    model: model.name,
    gptImage: model.gptImage,
    ...input,
    width: size.width,
    height: size.height,
    size: `${size.width}x${size.height}`,
    ...output,
    quality: qualityLabel(text(params['quality']), model.gptImage),
    responseFormat: params['response_format'] === 'url' ? 'url' : 'b64_json',
    inputImages: inputs.count,
    reference: inputs.reference,
    mask: inputs.mask,
  };
}

function checkModel(params: Record<string, unknown>, settings: ValidationSettings): { name: string; gptImage: boolean } | Rejection {
  // new-api's distributor falls back to "dall-e" when the model is empty (image-gateway.md §4.2.2).
  const name = text(params['model']) || 'dall-e';
  if (!settings.models.includes(name)) return { kind: 'preset', preset: 'unknown_model', model: name };
  const gptImage = isGptImageModel(name);
  // GPT image models always answer b64_json and refuse the field outright (image-gateway.md §2.6).
  if (gptImage && params['response_format'] !== undefined) return { kind: 'preset', preset: 'unknown_parameter', param: 'response_format' };
  const unsupported = settings.unsupportedParams.find((p) => params[p] !== undefined);
  if (unsupported) return { kind: 'preset', preset: 'unknown_parameter', param: unsupported };
  return { name, gptImage };
}

function checkPromptAndCount(params: Record<string, unknown>, model: string): { prompt: string; n: number } | Rejection {
  const prompt = text(params['prompt']);
  if (!prompt) return invalid('prompt', "Missing required parameter: 'prompt'.");
  if (prompt.length > maxPromptLength(model)) return { kind: 'preset', preset: 'prompt_too_long' };
  const n = integer(params['n']) ?? 1;
  const maxN = model === 'dall-e-3' ? 1 : 10;
  if (n < 1 || n > maxN) return invalid('n', `Invalid value: ${n}. 'n' must be between 1 and ${maxN}.`);
  return { prompt, n };
}

type OutputSettings = Pick<ImageJob, 'format' | 'compression' | 'transparent' | 'stream' | 'partialImages'>;

function checkOutput(params: Record<string, unknown>, model: string, gptImage: boolean): OutputSettings | Rejection {
  const format = text(params['output_format']) || 'png';
  if (format !== 'png' && format !== 'jpeg' && format !== 'webp')
    return invalid('output_format', `Invalid value: '${format}'. Supported values are: 'png', 'jpeg', and 'webp'.`);
  const compression = integer(params['output_compression']);
  if (compression !== undefined && (compression < 0 || compression > 100))
    return invalid('output_compression', 'output_compression must be between 0 and 100.');
  if (compression !== undefined && format === 'png')
    return invalid('output_compression', "output_compression is only supported for the 'jpeg' and 'webp' output formats.");
  const background = text(params['background']) || 'auto';
  if (background === 'transparent' && format === 'jpeg')
    return invalid('background', "Transparent background is not supported for the 'jpeg' output format; use 'png' or 'webp'.");
  // gpt-image-2 no longer makes transparent backgrounds (since 2026-09-30).
  if (background === 'transparent' && model === 'gpt-image-2') return invalid('background', `Transparent background is not supported for model '${model}'.`);
  const stream = params['stream'] === true || params['stream'] === 'true';
  const partialImages = integer(params['partial_images']) ?? 0;
  if (partialImages < 0 || partialImages > 3) return invalid('partial_images', 'partial_images must be between 0 and 3.');
  if (stream && !gptImage) return invalid('stream', `Streaming is not supported for model '${model}'.`);
  return { format, compression, transparent: background === 'transparent', stream, partialImages };
}

function checkSize(size: string, model: string, customSizes: boolean): { width: number; height: number } | Rejection {
  if (size === 'auto' && isGptImageModel(model)) return { width: 1024, height: 1024 };
  const fixed = DALLE_SIZES[model];
  if (fixed) {
    if (!fixed.includes(size)) return invalid('size', `Invalid value: '${size}'. Supported values are: ${fixed.map((s) => `'${s}'`).join(', ')}.`);
    return parseSize(size) ?? { width: 1024, height: 1024 };
  }
  const parsed = parseSize(size);
  if (GPT_SIZES.includes(size) && parsed) return parsed;
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

async function checkEditFiles(files: RecordedFile[]): Promise<{ count: number; reference: Buffer | undefined; mask: Buffer | undefined } | Rejection> {
  const images = files.filter((f) => f.field === 'image' || f.field === 'image[]' || /^image\[\d+\]$/.test(f.field));
  if (images.length === 0) return invalid('image', "Missing required parameter: 'image'.");
  if (images.length > 16) return invalid('image', `Invalid 'image': array too long. Expected at most 16 images, got ${images.length}.`);
  for (const [index, image] of images.entries()) {
    if (!detectFormat(image.bytes)) {
      return invalid(
        'image',
        `Invalid image file or mode for image ${index + 1}, please check your image file. Supported file formats are 'png', 'jpeg', and 'webp'.`,
      );
    }
  }
  const mask = files.find((f) => f.field === 'mask');
  if (mask) {
    const first = images[0] ? await readImageInfo(images[0].bytes) : undefined;
    const info = detectFormat(mask.bytes) === 'png' ? await readImageInfo(mask.bytes) : undefined;
    if (!info) return invalid('mask', 'Invalid mask image: the mask must be a valid PNG file.');
    if (!info.hasAlpha) return invalid('mask', 'Invalid mask image: the mask must have an alpha channel.');
    if (first && (first.width !== info.width || first.height !== info.height)) {
      return invalid(
        'mask',
        `Invalid mask image: the mask (${info.width}x${info.height}) must have the same dimensions as the image (${first.width}x${first.height}).`,
      );
    }
  }
  return { count: images.length, reference: images[0]?.bytes, mask: mask?.bytes };
}

function invalid(param: string, message: string): Rejection {
  return { kind: 'invalid', param, message, code: 'invalid_value' };
}

function maxPromptLength(model: string): number {
  if (model === 'dall-e-2') return 1000;
  if (model === 'dall-e-3') return 4000;
  return 32000;
}

function qualityLabel(quality: string, gptImage: boolean): string {
  if (!gptImage) return quality === 'hd' ? 'hd' : 'standard';
  return quality === 'low' || quality === 'high' ? quality : 'medium';
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
