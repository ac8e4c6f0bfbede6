/**
 * The interfaces the service layer owns. Adapters (the gateway client, the keyv stores, the Discord responder)
 * implement them; the service never imports discord.js, undici or keyv.
 */

/** Output image formats the gateway can produce. */
export type ImageFormat = 'png' | 'jpeg' | 'webp';
type ImageQuality = 'auto' | 'low' | 'medium' | 'high';
type ImageBackground = 'auto' | 'opaque' | 'transparent';
type ImageModeration = 'auto' | 'low';
export type InputFidelity = 'high' | 'low';

/** Options shared by generations and edits; only what the member set is sent, plus model. */
interface ImageOptions {
  /** Model name from the gateway's catalogue; the configured default when absent. */
  model?: string | undefined;
  /** `auto`, a standard size, or a custom `WIDTHxHEIGHT`. */
  size?: string | undefined;
  quality?: ImageQuality | undefined;
  background?: ImageBackground | undefined;
  outputFormat?: ImageFormat | undefined;
  /** 0–100, only with jpeg or webp. */
  outputCompression?: number | undefined;
  /** Number of images, 1–10. */
  n?: number | undefined;
  moderation?: ImageModeration | undefined;
}

/** A text-to-image request. */
export interface GenerateRequest extends ImageOptions {
  prompt: string;
}

/** An input image for an edit: bytes as downloaded; the format is sniffed from the bytes, never from the name. */
export interface InputImage {
  bytes: Uint8Array;
  /** Original file name, used only to build a friendly part name. */
  filename?: string | undefined;
}

/** An image-to-image request: reference images in order, an optional mask for the first one. */
export interface EditRequest extends GenerateRequest {
  images: InputImage[];
  mask?: InputImage | undefined;
  inputFidelity?: InputFidelity | undefined;
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

/** Token usage, when the gateway reports it. */
export interface ImageUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/** The outcome of one logical image request. */
export interface ImageResult {
  images: GeneratedImage[];
  model: string;
  usage?: ImageUsage | undefined;
  requestId?: string | undefined;
  /** Set when the gateway rejected a custom size and the standard size of the nearest aspect ratio was used. */
  sizeFallback?: { requested: string; used: string } | undefined;
  /** Parameters the model rejected as unknown or unsupported, dropped on the one retry. */
  droppedParams: string[];
}

/** Per-call options the caller controls. */
export interface GatewayCallOptions {
  /** Cancels the request (and any retry wait). */
  signal?: AbortSignal | undefined;
  /** Ask the gateway to stream; partial images are reported through onPartial. */
  stream?: boolean | undefined;
  /** Number of partial images to request when streaming (1–3). */
  partialImages?: number | undefined;
  onPartial?: ((image: PartialImage) => void) | undefined;
  /**
   * Awaited once the gateway has answered (status and headers in) and before its body is read. Lets the caller
   * bound how many answers are decoded and posted at once; the others wait in their sockets, not in memory.
   */
  beforeBody?: ((answer: { contentLength: number | undefined }) => Promise<void>) | undefined;
  /**
   * Told about the images of a JSON answer while they are decoded, before the answer is complete or checked, so
   * they can be passed on as they arrive. The returned result (or error) remains the only verdict on them.
   */
  imageFeed?: ImageFeed | undefined;
  /**
   * Supplies the Buffer a JSON answer's images are decoded into (at least `bytes` long) instead of a new one. Every
   * image of the answer is a view of it, so the caller must not reuse it while anything may still read them.
   */
  answerBuffer?: ((bytes: number) => Buffer) | undefined;
}

/**
 * Decoded image bytes as they arrive (GatewayCallOptions.imageFeed). Images are numbered in answer order and come
 * one after another: `data` any number of times, then `end` with all of the image's bytes. Must not throw.
 */
export interface ImageFeed {
  data(index: number, bytes: Buffer): void;
  end(index: number, bytes: Buffer): void;
}

/** A model the gateway offers. */
export interface GatewayModel {
  id: string;
  /** True when the id looks like an image model (gpt-image-*, dall-e-*, …). */
  image: boolean;
}

/** The image gateway as the service sees it. */
export interface ImageGateway {
  generate(request: GenerateRequest, options?: GatewayCallOptions): Promise<ImageResult>;
  edit(request: EditRequest, options?: GatewayCallOptions): Promise<ImageResult>;
  /** Image models first, the default model first of all; never throws (falls back to the default). */
  listModels(options?: { signal?: AbortSignal | undefined }): Promise<GatewayModel[]>;
  /** The cached catalogue without a network call (the default model alone before the first fetch). */
  cachedModels(): GatewayModel[];
}

/** Quota period, calendar-aligned in UTC. */
export type QuotaPeriod = 'day' | 'week' | 'month';

/** Who is asking, and where: the key of a member's quota. */
export interface QuotaSubject {
  /** The server, or null for direct messages and user-installed contexts (configuration defaults apply). */
  guildId: string | null;
  userId: string;
  /** The member's role ids in that server (empty outside servers). */
  roleIds: readonly string[];
}

/** Where a member's effective limit came from. */
export type QuotaLimitSource = 'member' | 'role' | 'server' | 'default';

/** A member's quota as it stands now. */
export interface QuotaStatus {
  limit: number;
  period: QuotaPeriod;
  /** Committed images in the current period. */
  used: number;
  /** Images held by unsettled reservations. */
  reserved: number;
  /** max(0, limit − used − reserved). */
  remaining: number;
  /** Start of the next period (ms since epoch). */
  resetsAt: number;
  source: QuotaLimitSource;
}

export type ReserveOutcome = { ok: true; reservationId: string; status: QuotaStatus } | { ok: false; status: QuotaStatus };

/** What an admin can set a limit on. */
export type QuotaTarget =
  { kind: 'server'; guildId: string } | { kind: 'role'; guildId: string; roleId: string } | { kind: 'member'; guildId: string; userId: string };

/** A stored limit. */
export interface QuotaLimit {
  limit: number;
  period: QuotaPeriod;
}

/** The quota ledger: exact under concurrency, fail-closed (storage errors are thrown). */
export interface QuotaLedger {
  /** Reserves `count` images for job `jobId`; refuses when it does not fit. */
  reserve(subject: QuotaSubject, jobId: string, count: number): Promise<ReserveOutcome>;
  /** Commits `delivered` images of the reservation and refunds the rest. Idempotent by job id. */
  commit(jobId: string, delivered: number): Promise<void>;
  /** Refunds the whole reservation. Idempotent by job id; a settled or unknown job is a no-op. */
  refund(jobId: string): Promise<void>;
  /** The member's quota now. */
  status(subject: QuotaSubject): Promise<QuotaStatus>;
  /** Sets a limit; returns what was there before (undefined when nothing was set) and after. */
  setLimit(target: QuotaTarget, limit: QuotaLimit): Promise<{ before: QuotaLimit | undefined; after: QuotaLimit }>;
  /** Clears a member's usage in the current period; returns the usage before. */
  resetUsage(guildId: string, userId: string): Promise<{ usedBefore: number }>;
}

/** Why a download failed. */
export type AttachmentDownloadFailure = 'host_not_allowed' | 'too_large' | 'http_status' | 'timeout' | 'network' | 'cancelled';

/**
 * A download of a member's attachment that failed (thrown by the download function ImageService is given);
 * `reason` is stable for mapping to user-facing copy.
 */
export class AttachmentDownloadError extends Error {
  override name = 'AttachmentDownloadError';
  readonly reason: AttachmentDownloadFailure;
  /** The HTTP status, for `http_status`. */
  readonly status: number | undefined;

  constructor(reason: AttachmentDownloadFailure, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.status = options.status;
  }
}

/** Injected time. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * A namespaced store of versioned records with expiry (button state, pending jobs).
 * Values are validated on read; an invalid record reads as undefined and is logged.
 */
export interface RecordStore<T> {
  get(id: string): Promise<T | undefined>;
  set(id: string, value: T, ttlMs: number): Promise<void>;
  delete(id: string): Promise<void>;
}

/** What went wrong, in terms a member can be told. `cancelled` means the caller aborted. */
export type GatewayErrorCategory =
  | 'invalid_key'
  | 'balance_exhausted'
  | 'unknown_model'
  | 'bad_parameter'
  | 'content_rejected'
  | 'busy'
  | 'timed_out'
  | 'gateway_failure'
  | 'endpoint_missing'
  | 'cancelled';

/** Fields of a GatewayError besides the message. */
export interface GatewayErrorDetails {
  category: GatewayErrorCategory;
  status?: number | undefined;
  code?: string | undefined;
  param?: string | undefined;
  requestId?: string | undefined;
  /** True when the request cannot have reached the gateway (refused, unresolvable, unroutable). */
  beforeSend?: boolean | undefined;
  cause?: unknown;
}

/** Any failure of a gateway call: the ImageGateway port's error contract (the adapter throws subclasses). */
export class GatewayError extends Error {
  override name = 'GatewayError';
  readonly category: GatewayErrorCategory;
  readonly status?: number | undefined;
  readonly code?: string | undefined;
  readonly param?: string | undefined;
  readonly requestId?: string | undefined;
  /** True when the request cannot have reached the gateway: it is down, not this request at fault. */
  readonly beforeSend: boolean;

  constructor(message: string, details: GatewayErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.category = details.category;
    this.status = details.status;
    this.code = details.code;
    this.param = details.param;
    this.requestId = details.requestId;
    this.beforeSend = details.beforeSend ?? false;
  }
}
