/** The image gateway port: what the service asks of the gateway adapter (src/gateway), and the options of a call. */
import type { EditRequest, GatewayModel, GenerateRequest, ImageResult, PartialImage } from '../core/images.js';

/** Per-call options the caller controls. */
export interface GatewayCallOptions {
  /** Cancels the request (and any retry wait). */
  signal?: AbortSignal | undefined;
  /** Ask the gateway to stream; partial images arrive as `partial_image` events. */
  stream?: boolean | undefined;
  /** Number of partial images to request when streaming (1–3). */
  partialImages?: number | undefined;
}

/**
 * What an image call yields while it runs, in order (the gateway's answer as a stream of events, as openai-node's
 * `Stream` of image events): the caller iterates and decides what to admit, keep and pass on. Two events are
 * requests the call waits on, answered by the caller before it asks for the next event (otherwise their default
 * applies):
 * - `admission`: a successful answer (status and headers in) is about to be read, or the images it links to; `bytes`
 *   is what it declares, when it does. Answered with the most bytes that may be read (a body or links beyond it are
 *   refused as too large), as a number or a promise that resolves once they fit (meanwhile the answer waits in its
 *   socket, not in memory); it rejects to stop the call. Each admission replaces the call's previous one. Default:
 *   no limit beyond the gateway's own cap.
 * - `buffer`: a plain-JSON answer is about to be decoded; `bytes` is the most its images can take. Answered with a
 *   Buffer of at least that size the images are decoded into (every image of the answer is then a view of it, so
 *   it must not be reused while anything may still read them). Default: the gateway allocates one.
 * `image_data` (any number of times) then `image_end` (with all of the image's bytes) tell each image of a JSON
 * answer while it is decoded, numbered in answer order; `partial_image` a preview of a streamed answer;
 * `task_status` the state of a task the gateway queued the request as (`queued`, then `generating`; changes only).
 * The last event is `completed` with the result; a failed call throws a GatewayError from the iteration instead,
 * after the events before it. Leaving the iteration early cancels the call.
 */
export type ImageStreamEvent =
  | { type: 'admission'; bytes: number | undefined; answer: (room: number | Promise<number>) => void }
  | { type: 'buffer'; bytes: number; answer: (buffer: Buffer) => void }
  | { type: 'image_data'; index: number; bytes: Buffer }
  | { type: 'image_end'; index: number; bytes: Buffer }
  | { type: 'partial_image'; image: PartialImage }
  | { type: 'task_status'; status: 'queued' | 'generating' }
  | { type: 'completed'; result: ImageResult };

/** One image call: iterated once; nothing is sent before the iteration starts. */
export type ImageStream = AsyncIterable<ImageStreamEvent>;

/**
 * The image gateway as the service sees it. Requests arrive validated by the service's rules (image-rules.ts
 * validateGenerateRequest or validateEditRequest, and mask-check.ts for a mask) and normalised as those return them;
 * an adapter sends them as they are and does not check them again.
 */
export interface ImageGateway {
  generate(request: GenerateRequest, options?: GatewayCallOptions): ImageStream;
  edit(request: EditRequest, options?: GatewayCallOptions): ImageStream;
  /** Image models first, the default model first of all; never throws (falls back to the default). */
  listModels(options?: { signal?: AbortSignal | undefined }): Promise<GatewayModel[]>;
  /** The cached catalogue without a network call (the default model alone before the first fetch). */
  cachedModels(): GatewayModel[];
}
