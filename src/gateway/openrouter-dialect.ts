/**
 * The OpenRouter dialect. Its image API is not on OpenAI's paths: generations and edits alike are `POST
 * {base}/images` with JSON (`prompt`, `model`, `n`, `resolution` and `aspect_ratio` or `size`, `quality`,
 * `background`, `output_format`, `output_compression`, `seed`, `stream`), an edit's images going as `input_references`
 * (`{type:"image_url",image_url:{url}}`, here base64 data URLs of the member's images). A model takes only what its
 * catalogue entry lists (openrouter-catalogue.ts), and `size` is never sent together with `resolution` or
 * `aspect_ratio` (refused). It answers `data[].b64_json` with `media_type`, and `usage` with `cost` in USD (read
 * by usage.ts as the reported cost); streamed, `image_generation.partial_image` and `.completed` events (sse.ts).
 * Chat completions (prompt help) stay on `{base}/chat/completions`.
 *
 * @see https://openrouter.ai/docs/guides/overview/multimodal/image-generation
 * @see https://openrouter.ai/docs/client-sdks/typescript/api-reference/models/imagegenerationrequest
 */
import type { EditRequest, InputImage } from '../core/images.js';
import { type Size, sizeText } from '../core/sizes.js';
import { sniffImageFormat } from '../core/image-rules.js';
import type { GatewayDialect, ImagePost } from './dialect.js';
import { fetchImageModels, listed, type OpenRouterModel } from './openrouter-catalogue.js';
import { OpenRouterPrices } from './openrouter-prices.js';
import { enumValues, toTierAndRatio } from './openrouter-profile.js';
import { modelOf, type WireParams } from './params.js';

/** Fields passed on when they were asked for and the model lists them (or, before the catalogue is known, always). */
const PASSED = ['n', 'aspect_ratio', 'resolution', 'quality', 'background', 'output_format', 'output_compression', 'seed', 'partial_images'] as const;
/** Where its catalogue is not known, only what OpenRouter's request itself defines is sent. */
const DEFINED: readonly string[] = ['n', 'quality', 'background', 'output_format', 'output_compression', 'seed'];

/** The size as the model takes it: one of its `size` values, or its nearest resolution tier and aspect ratio. */
function sizeFields(size: Size, model: OpenRouterModel | undefined): Record<string, string> {
  // Unknown model: OpenRouter's own shorthand, normalised for the provider.
  if (!model || enumValues(model.params, 'size')?.includes(sizeText(size))) return { size: sizeText(size) };
  return toTierAndRatio(size, model.params);
}

/** The JSON fields of a request, without its references. */
export function openRouterFields(params: WireParams, model: OpenRouterModel | undefined): Record<string, unknown> {
  const body: Record<string, unknown> = { model: params.get('model'), prompt: params.get('prompt') };
  const takes = (name: string): boolean => (model ? model.params[name] !== undefined : DEFINED.includes(name));
  for (const name of PASSED) {
    const value = params.get(name);
    if (value !== undefined && takes(name)) body[name] = value;
  }
  const size = params.get('size');
  if (typeof size === 'object') Object.assign(body, sizeFields(size, model));
  if (params.get('stream') === true && (model?.streaming ?? true)) body['stream'] = true;
  return body;
}

/** `{"type":"image_url","image_url":{"url":"data:image/png;base64,…"}}` as chunks, the base64 written once. */
function referenceChunks(image: InputImage, first: boolean): Buffer[] {
  // The service has refused anything but png, jpeg and webp (ImageGateway's contract).
  const format = sniffImageFormat(image.bytes) ?? 'png';
  const bytes = Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength);
  return [
    Buffer.from(`${first ? '' : ','}{"type":"image_url","image_url":{"url":"data:image/${format};base64,`),
    Buffer.from(bytes.toString('base64'), 'latin1'),
    Buffer.from('"}}'),
  ];
}

/** The POST of one image request: JSON, with an edit's images as `input_references` (its mask is never sent: none takes one). */
export function openRouterImagePost(params: WireParams, edit: EditRequest | undefined, model: OpenRouterModel | undefined): ImagePost {
  const fields = JSON.stringify(openRouterFields(params, model));
  if (!edit || edit.images.length === 0) return { path: '/images', contentType: 'application/json', body: fields };
  // `{"input_references":[…],` then the other fields without their opening brace.
  const chunks = [
    Buffer.from('{"input_references":['),
    ...edit.images.flatMap((image, i) => referenceChunks(image, i === 0)),
    Buffer.from(`],${fields.slice(1)}`),
  ];
  return { path: '/images', contentType: 'application/json', body: chunks, length: chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0) };
}

/** See the module comment; the dialect keeps the latest catalogue for the bodies it writes, and the models' prices. */
export function createOpenRouterDialect(): GatewayDialect {
  const models = new Map<string, OpenRouterModel>();
  const prices = new OpenRouterPrices();
  return {
    name: 'openrouter',
    keyHeader: 'authorization',
    imagePost: (_endpoint, params, edit) => openRouterImagePost(params, edit, models.get(modelOf(params))),
    chatRoute: (model) => ({ path: '/chat/completions', model }),
    async fetchModels(ctx, signal, timeoutMs) {
      const list = await fetchImageModels(ctx, signal, timeoutMs);
      models.clear();
      for (const model of list) models.set(model.id, model);
      await prices.update(ctx, [...models.keys()], signal, timeoutMs);
      return list.map((model) => listed(model, prices.of(model.id)));
    },
  };
}
