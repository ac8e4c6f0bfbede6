/**
 * The image and mask parts of an edit: GPT image models take up to 16 png/jpeg/webp images, dall-e-2 exactly one
 * square RGBA (or LA, L) PNG under 4 MB; a mask is a PNG with alpha, the size of the first image.
 * @see /work/shared/docs/image-gateway.md §2.3, §2.7
 */
import { detectFormat, readImageInfo } from './images.js';
import type { ModelRules } from './model-rules.js';
import type { RecordedFile } from './types.js';

/** An edit's accepted inputs. */
export interface EditInputs {
  count: number;
  /** The first `image` part (what an illustrated edit transforms). */
  reference: Buffer | undefined;
  mask: Buffer | undefined;
}

/** Why an input is refused: the 400's param and message. */
export interface InputProblem {
  param: 'image' | 'mask';
  message: string;
}

const DALL_E_2_MAX_BYTES = 4 * 1024 * 1024;
// The image modes dall-e-2 edits take, by sharp's channel count: L, LA, (RGB refused), RGBA.
const MODES: Readonly<Record<number, string>> = { 1: 'L', 2: 'LA', 3: 'RGB', 4: 'RGBA' };

/** Checks the file parts of an edit for a model's rules. */
export async function checkEditInputs(files: RecordedFile[], edits: ModelRules['edits']): Promise<EditInputs | InputProblem> {
  const images = files.filter((f) => f.field === 'image' || f.field === 'image[]' || /^image\[\d+\]$/.test(f.field));
  if (images.length === 0) return { param: 'image', message: "Missing required parameter: 'image'." };
  const problem = edits === 'dall-e-2' ? await dallE2Problem(images) : gptProblem(images);
  if (problem) return problem;
  const mask = files.find((f) => f.field === 'mask');
  const maskProblem = mask ? await checkMask(mask.bytes, images[0]?.bytes) : undefined;
  if (maskProblem) return maskProblem;
  return { count: images.length, reference: images[0]?.bytes, mask: mask?.bytes };
}

function gptProblem(images: RecordedFile[]): InputProblem | undefined {
  if (images.length > 16) return { param: 'image', message: `Invalid 'image': array too long. Expected at most 16 images, got ${images.length}.` };
  const index = images.findIndex((image) => !detectFormat(image.bytes));
  if (index < 0) return undefined;
  const message = `Invalid image file or mode for image ${index + 1}, please check your image file. Supported file formats are 'png', 'jpeg', and 'webp'.`;
  return { param: 'image', message };
}

/** OpenAI's own texts for dall-e-2's input rules. */
async function dallE2Problem(images: RecordedFile[]): Promise<InputProblem | undefined> {
  if (images.length > 1) return { param: 'image', message: `Invalid 'image': dall-e-2 takes exactly one image, got ${images.length}.` };
  const bytes = images[0]?.bytes ?? Buffer.alloc(0);
  if (detectFormat(bytes) !== 'png' || bytes.length >= DALL_E_2_MAX_BYTES)
    return { param: 'image', message: 'Uploaded image must be a PNG and less than 4 MB.' };
  const info = await readImageInfo(bytes);
  if (!info) return { param: 'image', message: 'Uploaded image must be a PNG and less than 4 MB.' };
  const mode = MODES[info.channels] ?? `${info.channels} channels`;
  if (mode === 'RGB' || !MODES[info.channels]) return { param: 'image', message: `Invalid input image - format must be in ['RGBA', 'LA', 'L'], got ${mode}.` };
  if (info.width !== info.height) return { param: 'image', message: 'Invalid image: image must be square' };
  return undefined;
}

async function checkMask(mask: Buffer, first: Buffer | undefined): Promise<InputProblem | undefined> {
  const image = first ? await readImageInfo(first) : undefined;
  const info = detectFormat(mask) === 'png' ? await readImageInfo(mask) : undefined;
  if (!info) return { param: 'mask', message: 'Invalid mask image: the mask must be a valid PNG file.' };
  if (!info.hasAlpha) return { param: 'mask', message: 'Invalid mask image: the mask must have an alpha channel.' };
  if (image && (image.width !== info.width || image.height !== info.height)) {
    const message = `Invalid mask image: the mask (${info.width}x${info.height}) must have the same dimensions as the image (${image.width}x${image.height}).`;
    return { param: 'mask', message };
  }
  return undefined;
}
