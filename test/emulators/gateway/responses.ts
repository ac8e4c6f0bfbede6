/**
 * Success bodies: ImagesResponse JSON (image-gateway.md §2.4) and the stream events of §2.5.
 */
import type { ImageFactory, ImageSpec } from './images.js';
import type { SuccessBehaviour } from './types.js';
import type { ImageJob } from './validation.js';

/** Stores served under the emulator's /files/ route. */
export interface FileStore {
  /** Serves the bytes and returns their absolute URL; `broken` returns a URL that answers 404. */
  publish(bytes: Buffer, extension: string, broken: boolean): string;
}

/** What building a success answer needs. */
export interface SuccessContext {
  images: ImageFactory;
  files: FileStore;
  style: 'flat' | 'textured';
}

/** One rendered output image of a job. */
export interface RenderedImage {
  bytes: Buffer;
  spec: ImageSpec;
}

// Output tokens for a 1024x1024 image per quality (OpenAI's image pricing table); scaled by area.
const OUTPUT_TOKENS: Record<string, number> = { low: 272, medium: 1056, high: 4160 };
const TOKENS_PER_INPUT_IMAGE = 323;

/** The n images of a job, honouring wrongFormat. */
export async function renderImages(job: ImageJob, behaviour: SuccessBehaviour, ctx: SuccessContext): Promise<RenderedImage[]> {
  const out: RenderedImage[] = [];
  for (let variant = 0; variant < job.n; variant++) {
    const spec = specOf(job, ctx.style, variant);
    out.push({ spec, bytes: await (behaviour.wrongFormat ? ctx.images.wrongFormat(spec) : ctx.images.image(spec)) });
  }
  return out;
}

/** The ImageSpec of the variant-th output of a job. */
export function specOf(job: ImageJob, style: 'flat' | 'textured', variant: number): ImageSpec {
  return { width: job.width, height: job.height, format: job.format, transparent: job.transparent, style, compression: job.compression, variant };
}

/** `usage` as gpt-image models report it; dall-e models report none. */
export function usageOf(job: ImageJob): Record<string, unknown> {
  const textTokens = Math.max(1, Math.ceil(job.prompt.length / 4));
  const imageTokens = job.inputImages * TOKENS_PER_INPUT_IMAGE;
  const perImage = Math.round(((OUTPUT_TOKENS[job.quality] ?? 1056) * job.width * job.height) / (1024 * 1024));
  const output = perImage * job.n;
  return {
    input_tokens: textTokens + imageTokens,
    output_tokens: output,
    total_tokens: textTokens + imageTokens + output,
    input_tokens_details: { text_tokens: textTokens, image_tokens: imageTokens },
  };
}

/**
 * Base64 of a rendered image, cached per Buffer: the image factory reuses Buffers per spec, and re-encoding
 * megabytes on every answer would put the emulator's CPU into the bot's measured overhead.
 */
const base64Cache = new WeakMap<Buffer, string>();
function base64Of(bytes: Buffer): string {
  let text = base64Cache.get(bytes);
  if (text === undefined) {
    text = bytes.toString('base64');
    base64Cache.set(bytes, text);
  }
  return text;
}

/** The JSON ImagesResponse for rendered images. */
export function imagesResponseBody(job: ImageJob, behaviour: SuccessBehaviour, rendered: RenderedImage[], ctx: SuccessContext): Record<string, unknown> {
  const asUrl = behaviour.urlItems === true || behaviour.brokenUrl === true || job.responseFormat === 'url';
  const data = behaviour.emptyData
    ? []
    : rendered.map((image) => {
        const item: Record<string, unknown> = asUrl ? { url: ctx.files.publish(image.bytes, image.spec.format, behaviour.brokenUrl === true) } : { b64_json: base64Of(image.bytes) };
        if (job.model === 'dall-e-3') item['revised_prompt'] = `A detailed rendering of: ${job.prompt}`;
        return item;
      });
  const body: Record<string, unknown> = { created: Math.floor(Date.now() / 1000), data };
  if (!job.gptImage) return body;
  body['background'] = job.transparent ? 'transparent' : 'opaque';
  body['output_format'] = job.format;
  body['size'] = job.size;
  body['quality'] = job.quality;
  if (!behaviour.omitUsage) body['usage'] = usageOf(job);
  return body;
}

/** The stream events of a job: per image, its partial images then its completed event. */
export async function streamEvents(job: ImageJob, behaviour: SuccessBehaviour, rendered: RenderedImage[], ctx: SuccessContext): Promise<Record<string, unknown>[]> {
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
    const payload = behaviour.urlItems || behaviour.brokenUrl
      ? { url: ctx.files.publish(image.bytes, image.spec.format, behaviour.brokenUrl === true) }
      : { b64_json: base64Of(image.bytes) };
    const completed: Record<string, unknown> = { type: `${prefix}.completed`, ...payload, ...common };
    if (!behaviour.omitUsage) completed['usage'] = usageOf(job);
    events.push(completed);
  }
  return events;
}
