/**
 * The interfaces the service layer owns. Adapters (the gateway client, the keyv stores, the Discord responder)
 * implement them; the service never imports discord.js, undici or keyv. The request types derive from the zod
 * schemas of image-request.ts.
 */
import type { EditFields, GenerateRequest, IMAGE_FORMATS, INPUT_FIDELITIES } from '../core/image-request.js';

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

/** One part of a chat message: text, or an image (a data URL) for a vision model. */
export type ChatContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** One chat message (prompt help sends a system instruction and the member's input). */
export interface ChatMessage {
  role: 'system' | 'user';
  content: string | ChatContentPart[];
}

/** One bounded chat completion: the model, the messages, at most `maxTokens` of answer. */
export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  maxTokens: number;
  signal?: AbortSignal | undefined;
}

/** A chat model's answer: its text, and the tokens it used as the gateway reported them. */
export interface ChatCompletion {
  text: string;
  model: string;
  usage?: ImageUsage | undefined;
  requestId?: string | undefined;
}

/**
 * The gateway's chat models as the service sees them (prompt help: enhance and describe). Throws a GatewayError
 * when the call fails; the adapter bounds it (timeout, max tokens, one retry when the gateway is busy).
 */
export interface PromptModel {
  complete(request: ChatCompletionRequest): Promise<ChatCompletion>;
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

/**
 * The quota ledger: exact under concurrency, also across processes sharing a store; fail-closed (storage errors are
 * thrown). A reservation is a lease: it holds its images for a lease period (JOB_LEASE_MS) unless its job renews it,
 * so the quota of a job whose process died frees itself.
 */
export interface QuotaLedger {
  /** Reserves `count` images for job `jobId` for one lease period; refuses when it does not fit. */
  reserve(subject: QuotaSubject, jobId: string, count: number): Promise<ReserveOutcome>;
  /**
   * Extends the job's lease by a lease period from now. A live job whose reservation lapsed or was released holds
   * its images again. A committed or unknown job is a no-op.
   */
  renew(jobId: string): Promise<void>;
  /**
   * Charges `delivered` images (at most what was reserved) and releases the reservation. Charges even when the
   * reservation has lapsed or was released meanwhile; a second commit of the same job charges nothing.
   */
  commit(jobId: string, delivered: number): Promise<void>;
  /** Releases the whole reservation. A refunded, lapsed, committed or unknown job is a no-op. */
  refund(jobId: string): Promise<void>;
  /** The member's quota now. */
  status(subject: QuotaSubject): Promise<QuotaStatus>;
  /** Sets a limit; returns what was there before (undefined when nothing was set) and after. */
  setLimit(target: QuotaTarget, limit: QuotaLimit): Promise<{ before: QuotaLimit | undefined; after: QuotaLimit }>;
  /** Clears a member's usage in the current period; returns the usage before. */
  resetUsage(guildId: string, userId: string): Promise<{ usedBefore: number }>;
}

/** A money limit (issue 17): US dollars per period. */
export interface MoneyLimit {
  usd: number;
  period: QuotaPeriod;
}

/** A member's spending against the money limit that applies to them, as it stands now (USD). */
export interface SpendStatus extends MoneyLimit {
  /** Committed cost in the current period (reported by the gateway, or estimated from its usage figures). */
  spent: number;
  /** Estimates held by unsettled jobs. */
  reserved: number;
  /** max(0, usd − spent − reserved). */
  remaining: number;
  /** Start of the next period (ms since epoch). */
  resetsAt: number;
  source: Exclude<QuotaLimitSource, 'default'>;
}

/** `held`: the estimate is held (a money limit applies), so the job renews, commits or refunds it. */
export type SpendOutcome = { ok: true; held: boolean } | { ok: false; status: SpendStatus };

/**
 * The money limits beside the image quota: the same ledger rules (a job's estimate is held as a lease, its actual
 * cost committed, a failure refunds), for members with a money limit set for them, one of their roles or their
 * server. A member without one is neither held nor counted. Exact across processes; fail-closed.
 */
export interface SpendLedger {
  /** Holds `usd` (the job's estimate) for job `jobId` when a money limit applies; refuses when it does not fit. */
  reserve(subject: QuotaSubject, jobId: string, usd: number): Promise<SpendOutcome>;
  /** Extends the job's hold by a lease period (see {@link QuotaLedger.renew}). */
  renew(jobId: string): Promise<void>;
  /** Charges the job's actual cost (even beyond its estimate) and releases its hold; once per job. */
  commit(jobId: string, usd: number): Promise<void>;
  /** Releases the job's hold. */
  refund(jobId: string): Promise<void>;
  /** The member's spending, or undefined when no money limit applies to them. */
  status(subject: QuotaSubject): Promise<SpendStatus | undefined>;
  /** Sets (or with undefined removes) a money limit; returns what was there before and after. */
  setLimit(target: QuotaTarget, limit: MoneyLimit | undefined): Promise<{ before: MoneyLimit | undefined; after: MoneyLimit | undefined }>;
}

/** Members' describes per period (the admins' describes cap, describe-cap.ts), counted atomically across processes. */
export interface DescribeCounts {
  /** Adds `by` (1, or −1 to give a place back) to the member's count in `window`; answers the new count. */
  add(guildId: string, userId: string, window: { label: string; end: number }, by: number): Promise<number>;
}

/**
 * Job slots shared by every process on one store, so MAX_CONCURRENT_JOBS and MAX_RUNNING_PER_MEMBER hold across all
 * of them: a job holds one global slot and one of its member's while it runs. The Redis and PostgreSQL stores offer
 * them; the hold of a process that died frees itself (PostgreSQL with its connection, Redis when its expiry passes
 * unrefreshed).
 */
export interface JobSlots {
  /**
   * Waits until a global slot and one of `memberId`'s are both free and holds them. Calls `onWait` once when they
   * are not free at the first try. Rejects with `signal.reason` once `signal` aborts, holding nothing then, and with
   * a StorageUnavailableError when the store fails.
   */
  acquire(memberId: string, options: { signal: AbortSignal; onWait?: (() => void) | undefined }): Promise<SlotHold>;
}

/** The slots one job holds. */
export interface SlotHold {
  /** Frees them; idempotent, and never rejects (a failure is logged, and the hold lapses on its own). */
  release(): Promise<void>;
}

/** An accepted job found in the journal of a process that died, as {@link JobJournal.claimAbandoned} hands it over. */
export interface AbandonedJobEntry {
  jobId: string;
  /** What the service wrote with {@link JobJournal.open}; validate before use (it may be from another version). */
  entry: unknown;
}

/**
 * Accepted jobs that are not settled yet, kept in the store under the process that runs them, so that when a process
 * dies (SIGKILL, OOM, power) another process, or this one after a restart, can tell their members. A process holds
 * its journal by a lease (JOB_LEASE_MS) it renews with {@link heartbeat}; once that lapses, any process may claim
 * its jobs, and each job is claimed once across all processes.
 */
export interface JobJournal {
  /** Records an accepted job under this process, with where to answer it (opaque to the store). */
  open(jobId: string, entry: unknown): Promise<void>;
  /** Forgets a settled job. */
  close(jobId: string): Promise<void>;
  /**
   * Extends this process's lease by JOB_LEASE_MS. Resolves with the ids of jobs another process claimed meanwhile
   * (this process looked dead to it: the store was out of reach for a lease period); those stay forgotten.
   */
  heartbeat(): Promise<string[]>;
  /** Takes the jobs of every process whose lease has lapsed; each job is handed to one caller only. */
  claimAbandoned(): Promise<AbandonedJobEntry[]>;
  /** Leaves the journal (graceful stop, with no job left open). */
  retire(): Promise<void>;
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
  /** The most that was to be read, for `too_large`. */
  readonly maxBytes: number | undefined;

  constructor(reason: AttachmentDownloadFailure, message: string, options: { status?: number; maxBytes?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.status = options.status;
    this.maxBytes = options.maxBytes;
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
  /**
   * The proxy in front of the gateway whose headers the answer carries: `cloudflare` when it has both `cf-ray` and
   * `server: cloudflare` (a 524 then is Cloudflare cutting a call that ran past its 100 s, not the gateway failing).
   */
  proxy?: 'cloudflare' | undefined;
  /** An image refused for its declared size (code `image_too_large`): its width and height, and the most pixels allowed. */
  pixels?: DeclaredPixels | undefined;
  cause?: unknown;
}

/** An image's declared width and height, and the most pixels (width x height) a decode allows. */
export interface DeclaredPixels {
  width: number;
  height: number;
  max: number;
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
  /** The proxy in front of the gateway whose headers the answer carried (see GatewayErrorDetails.proxy). */
  readonly proxy?: 'cloudflare' | undefined;
  /** See GatewayErrorDetails.pixels. */
  readonly pixels?: DeclaredPixels | undefined;

  constructor(message: string, details: GatewayErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.category = details.category;
    this.status = details.status;
    this.code = details.code;
    this.param = details.param;
    this.requestId = details.requestId;
    this.beforeSend = details.beforeSend ?? false;
    this.proxy = details.proxy;
    this.pixels = details.pixels;
  }
}
