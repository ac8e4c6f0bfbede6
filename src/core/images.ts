/**
 * The images' vocabulary: what a request, an input and a result are. The request types derive from the zod schemas
 * of image-request.ts; the ports (src/ports) speak in these.
 */
import type { EditFields, GenerateRequest, IMAGE_FORMATS, INPUT_FIDELITIES } from './image-request.js';
import type { Size } from './sizes.js';

/** Output image formats the gateway can produce. */
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export type InputFidelity = (typeof INPUT_FIDELITIES)[number];

/** A text-to-image request: the type of its zod schema in image-request.ts, the one definition of its fields and rules. */
export type { GenerateRequest };

/** An input image for an edit: bytes as downloaded; the format is sniffed from the bytes, never from the name. */
export interface InputImage {
  bytes: Uint8Array;
  /** Original file name, used only to build a friendly part name. */
  filename?: string | undefined;
}

/** An image-to-image request: reference images in order, an optional mask for the first one, and the edit fields. */
export interface EditRequest extends GenerateRequest, EditFields {
  images: InputImage[];
  mask?: InputImage | undefined;
}

/** A decoded image returned by the gateway. */
export interface GeneratedImage {
  bytes: Buffer;
  format: ImageFormat;
  width: number;
  height: number;
}

/** A partial (preview) image received while streaming. */
export interface PartialImage {
  /** 0-based index of the partial image in the stream. */
  index: number;
  bytes: Buffer;
  format: ImageFormat;
}

/** Token usage and cost, normalised from whatever shape the gateway reports them in. */
export interface ImageUsage {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  totalTokens?: number | undefined;
  inputTextTokens?: number | undefined;
  inputImageTokens?: number | undefined;
  outputImageTokens?: number | undefined;
  outputTextTokens?: number | undefined;
  /** USD, when the gateway reports what the request cost. */
  costUsd?: number | undefined;
}

/** The outcome of one logical image request. */
export interface ImageResult {
  images: GeneratedImage[];
  model: string;
  usage?: ImageUsage | undefined;
  requestId?: string | undefined;
  /** Set when the gateway rejected a custom size and the standard size of the nearest aspect ratio was used. */
  sizeFallback?: { requested: Size; used: Size } | undefined;
  /** Parameters the model rejected as unknown or unsupported, dropped on the one retry. */
  droppedParams: string[];
}

/** A model the gateway offers. */
export interface GatewayModel {
  id: string;
  /** True when the id looks like an image model (gpt-image-*, dall-e-*, …). */
  image: boolean;
  /** The model a command without one uses. */
  default?: boolean | undefined;
  /** YYYY-MM-DD, when the gateway reports that the model shuts down. */
  shutdownDate?: string | undefined;
}
