/**
 * Success bodies: ImagesResponse JSON (image-gateway.md §2.4) and the stream events of §2.5.
 */
import { createHash } from 'node:crypto';
import type { Scene } from './illustration.js';
import type { ImageFactory, ImageSpec, OutputFormat } from './images.js';
import { padPng } from './png-padding.js';
import type { ImageStyle, SuccessBehaviour } from './types.js';
import type { ImageJob } from './validation.js';

/** Stores served under the emulator's /files/ route. */
export interface FileStore {
  /**
   * Serves the bytes and returns their absolute URL; `broken` returns a URL that answers 404, and with `ttlMs` the
   * URL answers 403 (expired, as object storage answers a signed link past its time) from that long on.
   */
  publish(bytes: Buffer, extension: OutputFormat, broken: boolean, ttlMs?: number): string;
}

/** What building a success answer needs. */
export interface SuccessContext {
  images: ImageFactory;
  files: FileStore;
  style: ImageStyle;
}

/** One rendered output image of a job. */
export interface RenderedImage {
  bytes: Buffer;
  spec: ImageSpec;
}

// Output tokens for a 1024x1024 image per quality (OpenAI's image pricing table); scaled by area. xhigh and max
// (gpt-image-2.5 and later) are the emulator's own guesses above high: only their growth matters to tests.
const OUTPUT_TOKENS: Record<string, number> = { low: 272, medium: 1056, high: 4160, xhigh: 6240, max: 8320 };
const TOKENS_PER_INPUT_IMAGE = 323;

/**
 * How many images an answer carries: `n`, or fewer from an upstream that makes fewer without a word (`imageCount`),
 * or from a fan-out relay whose single-image calls partly failed (`fanOut.failed`).
 */
export function imagesMade(job: ImageJob, behaviour: SuccessBehaviour): number {
  if (behaviour.fanOut) return Math.max(0, job.n - (behaviour.fanOut.failed ?? 0));
  return behaviour.imageCount === undefined ? job.n : Math.min(job.n, behaviour.imageCount);
}

/** The images of a job (see {@link imagesMade}), honouring wrongFormat. */
export async function renderImages(job: ImageJob, behaviour: SuccessBehaviour, ctx: SuccessContext): Promise<RenderedImage[]> {
  const out: RenderedImage[] = [];
  const scene = ctx.style === 'illustrated' ? sceneOf(job) : undefined;
  for (let variant = 0; variant < imagesMade(job, behaviour); variant++) {
    // Some "-all" models ignore `size` and always draw their own.
    const spec = behaviour.ignoreSize ? { ...specOf(job, ctx.style, variant, scene), width: 1024, height: 1024 } : specOf(job, ctx.style, variant, scene);
    out.push({ spec, bytes: await (behaviour.wrongFormat ? ctx.images.wrongFormat(spec) : ctx.images.image(spec)) });
  }
  return out;
}

/** The ImageSpec of the variant-th output of a job. */
export function specOf(job: ImageJob, style: ImageStyle, variant: number, scene?: Scene): ImageSpec {
  return { width: job.width, height: job.height, format: job.format, transparent: job.transparent, style, compression: job.compression, variant, scene };
}

/** What an illustrated answer shows, keyed by a digest of the prompt, model, n and the edit's input bytes. */
export function sceneOf(job: ImageJob): Scene {
  const digest = createHash('sha256').update(JSON.stringify([job.endpoint, job.model, job.n, job.prompt]));
  for (const bytes of [job.reference, job.mask]) digest.update(bytes ? createHash('sha256').update(bytes).digest('hex') : '-');
  const kind = job.endpoint === 'edits' ? 'edit' : 'generation';
  return { kind, prompt: job.prompt, model: job.model, count: job.n, reference: job.reference, mask: job.mask, key: digest.digest('hex') };
}

/** `usage` as gpt-image models report it; dall-e models report none. */
/** The usage in one of the shapes gateways send (SuccessBehaviour.usageShape). */
function usageIn(usage: ReturnType<typeof usageOf>, shape: SuccessBehaviour['usageShape']): Record<string, unknown> {
  const { input_tokens_details: details, ...plain } = usage;
  switch (shape ?? 'details') {
    case 'details':
      return usage;
    case 'plain':
      return plain;
    case 'chat':
      return { prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens, total_tokens: usage.total_tokens, prompt_tokens_details: details };
    case 'cost':
      return { ...usage, cost: 0.0421 };
    case 'ticks':
      return { ...usage, cost_in_usd_ticks: 421_000_000 };
  }
}

/**
 * The usage of `images` output images made by `calls` upstream calls: the input (prompt and references) is billed
 * once per call, so a fan-out relay's N single-image calls bill it N times.
 */
export function usageOf(job: ImageJob, images = job.n, calls = 1) {
  const textTokens = Math.max(1, Math.ceil(job.prompt.length / 4)) * calls;
  const imageTokens = job.inputImages * TOKENS_PER_INPUT_IMAGE * calls;
  const perImage = Math.round(((OUTPUT_TOKENS[job.quality] ?? 1056) * job.width * job.height) / (1024 * 1024));
  const output = perImage * images;
  return {
    input_tokens: textTokens + imageTokens,
    output_tokens: output,
    total_tokens: textTokens + imageTokens + output,
    input_tokens_details: { text_tokens: textTokens, image_tokens: imageTokens },
  };
}

/** The usage of an answer of `made` images: one call, or one per image of a fan-out relay (the failed ones billed nothing). */
function answerUsage(job: ImageJob, behaviour: SuccessBehaviour, made: number): ReturnType<typeof usageOf> {
  return usageOf(job, made, behaviour.fanOut ? made : 1);
}

/**
 * Base64 of a rendered image, cached per Buffer (as a string for stream events and as its ASCII bytes for JSON
 * answers): the image factory reuses Buffers per spec, and re-encoding megabytes on every answer would put the
 * emulator's CPU into the bot's measured overhead.
 */
const base64Cache = new WeakMap<Buffer, { text: string; bytes: Buffer }>();
function base64Entry(bytes: Buffer): { text: string; bytes: Buffer } {
  let entry = base64Cache.get(bytes);
  if (entry === undefined) {
    const text = bytes.toString('base64');
    entry = { text, bytes: Buffer.from(text, 'latin1') };
    base64Cache.set(bytes, entry);
  }
  return entry;
}
function base64Of(bytes: Buffer): string {
  return base64Entry(bytes).text;
}

// Stands in for each image's base64 in the serialised JSON; no real field value contains it.
const B64_SLOT = '\u0000b64\u0000';

/**
 * The JSON ImagesResponse for rendered images, as wire bytes: the small JSON around the images is serialised, the cached base64 bytes are
 * spliced in, so an answer costs no multi-megabyte string building or UTF-8 encoding (base64 needs no JSON
 * escaping, so the bytes are those of serialising the whole object).
 */
export function imagesResponseFrames(job: ImageJob, behaviour: SuccessBehaviour, rendered: RenderedImage[], ctx: SuccessContext): Buffer[] {
  const slots: Buffer[] = [];
  const text = JSON.stringify(
    responseObject(job, behaviour, rendered, ctx, (image) => {
      slots.push(base64Entry(image.bytes).bytes);
      return B64_SLOT;
    }),
  );
  const pieces = text.split(JSON.stringify(B64_SLOT).slice(1, -1));
  const frames: Buffer[] = [];
  pieces.forEach((piece, i) => {
    frames.push(Buffer.from(piece, 'utf8'));
    const slot = slots[i];
    if (i < pieces.length - 1 && slot) frames.push(slot);
  });
  return frames;
}

/** True when the behaviour answers links instead of base64. */
function linksOf(behaviour: SuccessBehaviour): boolean {
  return behaviour.urlItems === true || behaviour.brokenUrl === true || behaviour.fileIds === true;
}

/** A url item, with the `file_id` some gateways add to it (SuccessBehaviour.fileIds). */
function linkItem(image: RenderedImage, behaviour: SuccessBehaviour, ctx: SuccessContext): Record<string, unknown> {
  const url = ctx.files.publish(linkBytes(image, behaviour), image.spec.format, behaviour.brokenUrl === true, behaviour.urlTtlMs);
  return behaviour.fileIds ? { url, file_id: fileIdOf(url) } : { url };
}

/** A stable `file-…` id per published file, from its URL. */
function fileIdOf(url: string): string {
  return `file-${createHash('sha256').update(url).digest('hex').slice(0, 24)}`;
}

/** What a url item serves: the image, padded when the behaviour asks for heavy links. */
function linkBytes(image: RenderedImage, behaviour: SuccessBehaviour): Buffer {
  return behaviour.urlImageBytes !== undefined && image.spec.format === 'png' ? padPng(image.bytes, behaviour.urlImageBytes) : image.bytes;
}

/** The ImagesResponse for rendered images as an object with the base64 inline (small answers, such as a task's). */
export function imagesResponseObject(job: ImageJob, behaviour: SuccessBehaviour, rendered: RenderedImage[], ctx: SuccessContext): Record<string, unknown> {
  return responseObject(job, behaviour, rendered, ctx, (image) => base64Of(image.bytes));
}

function responseObject(
  job: ImageJob,
  behaviour: SuccessBehaviour,
  rendered: RenderedImage[],
  ctx: SuccessContext,
  b64: (image: RenderedImage) => string,
): Record<string, unknown> {
  const asUrl = linksOf(behaviour) || job.responseFormat === 'url';
  const data = behaviour.emptyData
    ? []
    : rendered.map((image) => {
        const item: Record<string, unknown> = asUrl ? linkItem(image, behaviour, ctx) : { b64_json: b64(image) };
        if (job.family === 'dall-e-3') item['revised_prompt'] = `A detailed rendering of: ${job.prompt}`;
        return item;
      });
  const body: Record<string, unknown> = { created: Math.floor(Date.now() / 1000), data };
  if (!job.gptImage) return body;
  body['background'] = job.transparent ? 'transparent' : 'opaque';
  body['output_format'] = job.format;
  body['size'] = job.size;
  body['quality'] = job.quality;
  if (!behaviour.omitUsage) body['usage'] = usageIn(answerUsage(job, behaviour, rendered.length), behaviour.usageShape);
  return body;
}

/** The stream events of a job: per image, its partial images then its completed event. */
export async function streamEvents(
  job: ImageJob,
  behaviour: SuccessBehaviour,
  rendered: RenderedImage[],
  ctx: SuccessContext,
): Promise<Record<string, unknown>[]> {
  const prefix = job.endpoint === 'edits' ? 'image_edit' : 'image_generation';
  const events: Record<string, unknown>[] = [];
  const images = behaviour.emptyData ? [] : rendered;
  for (const image of images) {
    const common = {
      created_at: Math.floor(Date.now() / 1000),
      size: job.size,
      quality: job.quality,
      background: job.transparent ? 'transparent' : 'opaque',
      output_format: job.format,
    };
    for (let index = 0; index < job.partialImages; index++) {
      const partial = await ctx.images.partial(image.spec, index);
      events.push({ type: `${prefix}.partial_image`, b64_json: partial.toString('base64'), ...common, partial_image_index: index });
    }
    const payload = linksOf(behaviour) ? linkItem(image, behaviour, ctx) : { b64_json: base64Of(image.bytes) };
    const completed: Record<string, unknown> = { type: `${prefix}.completed`, ...payload, ...common };
    if (!behaviour.omitUsage) completed['usage'] = usageIn(answerUsage(job, behaviour, rendered.length), behaviour.usageShape);
    events.push(completed);
  }
  return events;
}
