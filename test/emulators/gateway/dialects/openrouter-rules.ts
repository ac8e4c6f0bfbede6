/**
 * OpenRouter's checks of an image request (`POST /images`), as its documentation states them: `model` and `prompt`
 * required; a field the model's catalogue entry does not list is refused, not ignored; enum values and ranges are
 * held to (so a Gemini model takes `n` 1 only: "providers that only support single-image generation reject n > 1");
 * `size` with `resolution` or `aspect_ratio` is refused; `input_references` are `{type:"image_url",image_url:{url}}`
 * with an http(s) URL or a base64 data URL of an image; `stream` only where the model streams.
 *
 * @see https://openrouter.ai/docs/client-sdks/typescript/api-reference/models/imagegenerationrequest
 * @see https://openrouter.ai/docs/guides/overview/multimodal/image-generation
 */
import { detectFormat, type OutputFormat } from '../images.js';
import { pixelsOf, type OpenRouterModelDef } from './openrouter-models.js';

/** A request the emulator answers with images. */
export interface OpenRouterJob {
  model: OpenRouterModelDef;
  prompt: string;
  n: number;
  width: number;
  height: number;
  tier: string | undefined;
  format: OutputFormat;
  stream: boolean;
  /** The decoded data-URL references, in order. */
  references: Buffer[];
}

/** A refusal: the status and OpenRouter's message. */
export interface OpenRouterRefusal {
  status: number;
  message: string;
}

/** Fields every request may carry besides the model's own parameters. */
const ALWAYS = new Set(['model', 'prompt', 'stream', 'provider']);

const refuse = (message: string, status = 400): OpenRouterRefusal => ({ status, message });

/** Checks one request against the catalogue. */
export function checkOpenRouterRequest(body: Record<string, unknown>, models: readonly OpenRouterModelDef[]): OpenRouterJob | OpenRouterRefusal {
  const { model: id, prompt } = body;
  if (typeof id !== 'string' || id === '') return refuse('model is required');
  if (typeof prompt !== 'string' || prompt.trim() === '') return refuse('prompt is required');
  const model = models.find((m) => m.id === id);
  if (!model) return refuse(`${id} is not a valid model ID`);
  const params = Object.keys(body).filter((key) => !ALWAYS.has(key));
  const unsupported = params.find((key) => model.supported_parameters[key] === undefined);
  if (unsupported !== undefined) return refuse(`'${unsupported}' is not supported by ${id}`);
  if (body['size'] !== undefined && (body['resolution'] !== undefined || body['aspect_ratio'] !== undefined))
    return refuse('size cannot be combined with resolution or aspect_ratio');
  for (const key of params) {
    const problem = valueProblem(key, body[key], model);
    if (problem) return refuse(problem);
  }
  const stream = body['stream'] === true;
  if (stream && !model.supports_streaming) return refuse(`${id} does not support streaming`);
  const references = decodeReferences(body['input_references']);
  if (typeof references === 'string') return refuse(references);
  return { model, prompt, n: typeof body['n'] === 'number' ? body['n'] : 1, ...dimensions(body), format: formatOf(body), stream, references };
}

/** What is wrong with one value by its descriptor (a boolean descriptor only says the parameter is supported). */
function valueProblem(key: string, value: unknown, model: OpenRouterModelDef): string | undefined {
  const descriptor = model.supported_parameters[key];
  // `seed` has a boolean descriptor (it is supported); the value itself is an integer.
  if (key === 'seed' && !(typeof value === 'number' && Number.isInteger(value) && value >= 0)) return `seed must be a non-negative integer for ${model.id}`;
  if (descriptor?.type === 'enum' && !(typeof value === 'string' && descriptor.values.includes(value)))
    return `${key} must be one of ${descriptor.values.join(', ')} for ${model.id}`;
  if (descriptor?.type === 'range') {
    const n = key === 'input_references' ? (Array.isArray(value) ? value.length : Number.NaN) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < descriptor.min || n > descriptor.max)
      return `${key} must be between ${descriptor.min} and ${descriptor.max} for ${model.id}`;
  }
  return undefined;
}

function dimensions(body: Record<string, unknown>): { width: number; height: number; tier: string | undefined } {
  const size = typeof body['size'] === 'string' ? /^(\d+)x(\d+)$/.exec(body['size']) : null;
  if (size) return { width: Number(size[1]), height: Number(size[2]), tier: undefined };
  const tier = typeof body['resolution'] === 'string' ? body['resolution'] : undefined;
  return { ...pixelsOf(tier, typeof body['aspect_ratio'] === 'string' ? body['aspect_ratio'] : undefined), tier };
}

function formatOf(body: Record<string, unknown>): OutputFormat {
  const asked = body['output_format'];
  return asked === 'jpeg' || asked === 'webp' ? asked : 'png';
}

/** The data-URL references decoded (an http(s) one is accepted and not fetched), or what is wrong with them. */
function decodeReferences(value: unknown): Buffer[] | string {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return 'input_references must be an array';
  const out: Buffer[] = [];
  for (const item of value as { type?: unknown; image_url?: { url?: unknown } }[]) {
    const url = item.type === 'image_url' ? item.image_url?.url : undefined;
    if (typeof url !== 'string') return 'input_references items must be {"type":"image_url","image_url":{"url":…}}';
    if (/^https?:\/\//.test(url)) continue;
    const data = /^data:image\/(png|jpeg|webp);base64,([A-Za-z0-9+/=]+)$/.exec(url);
    const bytes = data?.[2] ? Buffer.from(data[2], 'base64') : undefined;
    if (!bytes || detectFormat(bytes) === undefined) return 'input_references must be http(s) URLs or base64 data URLs of PNG, JPEG or WebP images';
    out.push(bytes);
  }
  return out;
}
