/**
 * The request fields the client sends, under their wire names (image-request.ts WIRE_NAMES): only what the caller
 * set and the model's profile accepts (model-profiles.ts), plus model. `response_format=b64_json` only where the
 * profile asks for it (dall-e answers with links otherwise); GPT image models reject the field with 400
 * unknown_parameter and always answer in base64.
 *
 * @see ../../../shared/docs/image-gateway.md §0.3, §2.2, §2.3
 */
import type { EditRequest, GenerateRequest } from '../core/images.js';
import type { GatewayCallOptions } from '../ports/image-gateway.js';
import { WIRE_NAMES } from '../core/image-request.js';
import { ImageInputError, wholeNumber } from '../core/image-rules.js';
import type { ModelProfile } from '../core/model-profiles.js';
import { type Size, sizeText } from '../core/sizes.js';

/** A scalar field as it goes on the wire (JSON keeps types; multipart sends the text). */
export type WireValue = string | number | boolean | Size;

/** Ordered wire fields; the order is the multipart part order. */
export type WireParams = ReadonlyMap<string, WireValue>;

/** Fields the client may drop on the one retry when the model says it does not know them. */
export const DROPPABLE_PARAMS = [
  WIRE_NAMES.quality,
  WIRE_NAMES.background,
  WIRE_NAMES.outputFormat,
  WIRE_NAMES.outputCompression,
  WIRE_NAMES.moderation,
  WIRE_NAMES.inputFidelity,
  'stream',
  'partial_images',
] as const;

/** Fields that make no sense without another (compression without a format, partial images without a stream). */
const DEPENDENTS: Readonly<Record<string, readonly string[]>> = {
  [WIRE_NAMES.outputFormat]: [WIRE_NAMES.outputCompression],
  stream: ['partial_images'],
};

/** The request fields sent as wire fields besides the model, in wire order (also the multipart part order). */
const SENT_FIELDS = [
  'prompt',
  'n',
  'size',
  'ratio',
  'resolution',
  'quality',
  'background',
  'outputFormat',
  'outputCompression',
  'moderation',
  'style',
  'complexity',
  'seed',
] as const;
type SentField = (typeof SENT_FIELDS)[number] | 'inputFidelity';

/** Whether the profile takes the field with this value; `auto` where the model has no such word means its default (left out). */
function accepts(profile: ModelProfile, field: SentField, value: unknown): boolean {
  switch (field) {
    case 'size':
      return value !== 'auto' || profile.autoSize;
    case 'ratio':
      return profile.aspectRatios?.includes(value as never) === true;
    case 'resolution':
      return profile.resolutions?.includes(value as never) === true;
    case 'quality':
      return profile.qualities.includes(value as never);
    case 'background':
      return profile.backgrounds.includes(value as never);
    case 'outputFormat':
      return profile.formats.includes(value as never);
    case 'outputCompression':
      return profile.compression;
    case 'moderation':
      return profile.moderation;
    case 'style':
      return profile.styles.includes(value as never);
    case 'complexity':
      return profile.complexities.includes(value as never);
    case 'seed':
      return profile.seeds === true;
    case 'inputFidelity':
      return profile.edits?.inputFidelity === true;
    case 'n':
      // n=1 is every model's default; dall-e-3 takes nothing else.
      return value !== 1 || profile.maxN > 1;
    case 'prompt':
      return true;
  }
}

/** The highest `partial_images` the API accepts. */
const MAX_PARTIAL_IMAGES = 3;

/** Builds the wire fields for a request the service has validated (the ImageGateway contract). */
export function buildWireParams(req: GenerateRequest | EditRequest, model: string, call: GatewayCallOptions, profile: ModelProfile): WireParams {
  const fields = new Map<string, WireValue>();
  const put = (name: string, value: WireValue | undefined): void => {
    if (value !== undefined) fields.set(name, value);
  };
  const putField = (field: SentField, value: WireValue | undefined): void => {
    if (value !== undefined && accepts(profile, field, value)) put(WIRE_NAMES[field], value);
  };
  put(WIRE_NAMES.model, model);
  // A ratio the dialect takes itself goes as it is; the size then only estimated it.
  const nativeRatio = req.ratio !== undefined && accepts(profile, 'ratio', req.ratio);
  for (const field of SENT_FIELDS) if (!(field === 'size' && nativeRatio)) putField(field, req[field]);
  if ('images' in req) putField('inputFidelity', req.inputFidelity);
  if (profile.responseFormat) put('response_format', 'b64_json');
  if (call.stream && profile.streaming) {
    put('stream', true);
    put('partial_images', checkPartialImages(call.partialImages));
  }
  return fields;
}

function checkPartialImages(value: number | undefined): number | undefined {
  if (value !== undefined && !(Number.isInteger(value) && value >= 0 && value <= MAX_PARTIAL_IMAGES)) {
    throw new ImageInputError('partial_images', wholeNumber(0, MAX_PARTIAL_IMAGES));
  }
  return value;
}

/** A copy without `name` and the fields that depend on it; returns the names removed, in order. */
export function withoutParam(params: WireParams, name: string): { params: WireParams; dropped: string[] } {
  const dropped = [name, ...(DEPENDENTS[name] ?? [])].filter((key) => params.has(key));
  const next = new Map(params);
  for (const key of dropped) next.delete(key);
  return { params: next, dropped };
}

/** A copy with one field replaced, keeping its position. */
export function withParam(params: WireParams, name: string, value: WireValue): WireParams {
  const next = new Map(params);
  next.set(name, value);
  return next;
}

/** The model a request asks for, as written in its params. */
export function modelOf(params: WireParams): string {
  return String(wireValue(params.get('model') ?? ''));
}

/** A value as the wire writes it: a size as `WIDTHxHEIGHT`, anything else as it is. */
export function wireValue(value: WireValue): string | number | boolean {
  return typeof value === 'object' ? sizeText(value) : value;
}

/** The JSON body for /images/generations. */
export function toJsonBody(params: WireParams): string {
  return JSON.stringify(Object.fromEntries([...params].map(([name, value]) => [name, wireValue(value)])));
}
