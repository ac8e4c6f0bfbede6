/** The image gateway port: what the service asks of the gateway adapter (src/gateway), and the options of a call. */
import type { EditRequest, GatewayModel, GenerateRequest, ImageResult, PartialImage } from '../core/images.js';

/** Per-call options the caller controls. */
export interface GatewayCallOptions {
  /** Cancels the request (and any retry wait). */
  signal?: AbortSignal | undefined;
  /** Ask the gateway to stream; partial images are reported through onPartial. */
  stream?: boolean | undefined;
  /** Number of partial images to request when streaming (1–3). */
  partialImages?: number | undefined;
  onPartial?: ((image: PartialImage) => void) | undefined;
  /** Takes the answer while it arrives (the streamed delivery); without it the gateway reads answers on its own. */
  sink?: AnswerSink | undefined;
  /** Room for the answer in the process's memory budget; without it answers are read as they come, up to the cap. */
  memory?: AnswerMemory | undefined;
  /**
   * Told when the gateway answers with a task to poll instead of images (some relays queue requests): `queued` while
   * the task waits there, `generating` once it runs; called on changes only.
   */
  onTaskStatus?: ((status: 'queued' | 'generating') => void) | undefined;
}

/**
 * The job's room for its answer in the process's memory budget (memory-budget.ts). The gateway awaits `admit`
 * once it has answered with a success (status and headers in) and before it reads the body, and again before it
 * downloads the images an answer links to; each admission replaces the job's previous one. `bytes` is what is
 * about to be read when it is declared. It resolves with the most bytes that may be read (a body or links beyond
 * it are refused as too large), once they fit; meanwhile the answer waits in its socket, not in memory.
 */
export interface AnswerMemory {
  admit(bytes: number | undefined): Promise<number>;
}

/**
 * Where a successful answer goes while it arrives (GatewayCallOptions.sink). For a JSON answer the gateway calls
 * `buffer` for the Buffer its images are decoded into and `data`/`end` for each image's bytes as they are
 * decoded. Images are numbered in answer order and come one after another: `data` any number of times, then `end`
 * with all of the image's bytes. The result (or error) of the call stays the only verdict on them. `buffer`,
 * `data` and `end` must not throw.
 */
export interface AnswerSink {
  /**
   * A Buffer of at least `bytes` bytes the answer's images are decoded into. Every image of the answer is a view
   * of it, so the sink must not reuse it while anything may still read them.
   */
  buffer(bytes: number): Buffer;
  data(index: number, bytes: Buffer): void;
  end(index: number, bytes: Buffer): void;
}

/**
 * The image gateway as the service sees it. Requests arrive validated by the service's rules (image-rules.ts
 * validateGenerateRequest or validateEditRequest, and mask-check.ts for a mask) and normalised as those return them;
 * an adapter sends them as they are and does not check them again.
 */
export interface ImageGateway {
  generate(request: GenerateRequest, options?: GatewayCallOptions): Promise<ImageResult>;
  edit(request: EditRequest, options?: GatewayCallOptions): Promise<ImageResult>;
  /** Image models first, the default model first of all; never throws (falls back to the default). */
  listModels(options?: { signal?: AbortSignal | undefined }): Promise<GatewayModel[]>;
  /** The cached catalogue without a network call (the default model alone before the first fetch). */
  cachedModels(): GatewayModel[];
}
