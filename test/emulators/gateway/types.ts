import type { AzureEmulatorOptions } from './dialects/azure.js';
import type { OpenRouterModelDef } from './dialects/openrouter-models.js';

/**
 * Public types of the offline image-gateway emulator.
 * @see /work/shared/docs/image-gateway.md (§2 OpenAI contract, §4 one-api/new-api quirks, §6 errors)
 * @see /work/shared/docs/gateway-interface.md (the gateway's own doc; it wins where it differs from OpenAI)
 */

/** Which response-header name carries the request id (deployments differ, image-gateway.md §4.2.3). */
export type RequestIdHeader = 'x-request-id' | 'X-Oneapi-Request-Id' | 'x-api-request-id';

/**
 * How the emulator draws images. 'flat': a colour field and a disc, tiny and fast. 'textured': noisy, with the
 * weight of real photographic output (MB-sized PNGs), for delivery and benchmark load. 'illustrated': shows what was
 * asked (the prompt's words, the size, the variant; an edit is the first input image transformed, under its mask),
 * for the demo; slower, and cached per prompt and input image.
 */
export type ImageStyle = 'flat' | 'textured' | 'illustrated';

/** Options of {@link startGatewayEmulator}. */
export interface GatewayEmulatorOptions {
  /** The only accepted bearer key; anything else gets a 401 invalid-token body. @default 'sk-emulator-0000000000000000' */
  apiKey?: string | undefined;
  /**
   * Model catalogue; a model outside it gets the `unknown_model` preset. Each image model plays its family's rules
   * (model-rules.ts). `REALISTIC_MODELS` is what a 2026-11 gateway lists. @default DEFAULT_MODELS
   */
  models?: readonly string[] | undefined;
  /** GET /v1/models body: `{object:'list',data}` | `{success:true,data}` | JSON that is not a list. @default 'openai' */
  modelsShape?: 'openai' | 'new-api' | 'broken' | undefined;
  /** `shutdown_date` (Unix seconds in the list, given here as YYYY-MM-DD) of the models that have one. @default none */
  shutdownDates?: Readonly<Record<string, string>> | undefined;
  /** How answers' images are drawn (see {@link ImageStyle}). @default 'flat' */
  imageStyle?: ImageStyle | undefined;
  /** Processing delay of a successful image answer, counted from the request's arrival (or a hold's release). @default 0 */
  delayMs?: number | undefined;
  /** Accept gpt-image-2 style custom WIDTHxHEIGHT sizes. @default true */
  customSizes?: boolean | undefined;
  /** Parameters the model rejects with 400 unknown_parameter when present. @default [] */
  unsupportedParams?: string[] | undefined;
  /** Header that carries the request id on every response. @default 'X-Oneapi-Request-Id' */
  requestIdHeader?: RequestIdHeader | undefined;
  /** Language of the automatic errors (auth, unknown model). @default 'en' */
  lang?: 'en' | 'zh' | undefined;
  /** Request bodies larger than this get the `body_too_large` preset (413). @default 64 MiB */
  maxBodyBytes?: number | undefined;
  /**
   * Plays a relay behind Cloudflare's proxy: every answer carries `server: cloudflare` and a `cf-ray`, and an image
   * answer that has not sent its headers `timeoutMs` after the request arrived (Cloudflare: 100 s) is replaced by
   * Cloudflare's 524 page at that moment. Streams (headers at once) and task answers are not cut. @default off
   */
  cloudflare?: { timeoutMs?: number | undefined } | undefined;
  /**
   * The API the emulator speaks (README "Dialects"): OpenAI's with the one-api/new-api quirks, OpenRouter's image
   * API under `/api/v1`, or an Azure OpenAI resource. @default 'openai'
   */
  dialect?: 'openai' | 'openrouter' | 'azure' | undefined;
  /** The Azure resource (dialect `azure`): its deployments, api-versions, content filter and block. */
  azure?: AzureEmulatorOptions | undefined;
  /** OpenRouter (dialect `openrouter`): its image catalogue. @default OPENROUTER_MODELS */
  openRouter?: { models?: readonly OpenRouterModelDef[] | undefined } | undefined;
}

/** A multipart file part as received. */
export interface RecordedFile {
  field: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** A parsed multipart body. */
export interface RecordedForm {
  /** Text parts by name (the last one wins when a name repeats). */
  fields: Record<string, string>;
  /** File parts in wire order. */
  files: RecordedFile[];
  /** Part names in wire order, text and file parts alike. */
  order: string[];
}

/** One request the emulator received. */
export interface RecordedRequest {
  method: string;
  /** Path with query, as sent (e.g. `/v1/images/generations`). */
  path: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** `Date.now()` when the request arrived. */
  receivedAt: number;
  json?: Record<string, unknown>;
  form?: RecordedForm;
  /** Problems found by the OpenAPI request validator (empty when the body conforms). */
  specErrors: string[];
}

/** Status and body presets taken from image-gateway.md §2.6, §4 and §6. */
export type ErrorPreset =
  | 'invalid_key'
  | 'balance'
  | 'openai_quota'
  | 'unknown_model'
  | 'model_not_found_404'
  | 'bad_size'
  | 'unknown_parameter'
  | 'prompt_too_long'
  | 'moderation'
  | 'content_policy'
  | 'sensitive_words'
  | 'rate_limited'
  | 'rate_limited_empty'
  | 'saturated'
  | 'gateway_timeout_504'
  | 'cloudflare_521'
  | 'cloudflare_522'
  | 'cloudflare_523'
  | 'cloudflare_524'
  | 'origin_521'
  | 'origin_522'
  | 'origin_523'
  | 'request_timeout_408'
  | 'do_request_failed'
  | 'bad_gateway_502'
  | 'unavailable_503'
  | 'server_error'
  | 'not_implemented'
  | 'body_too_large';

/** A successful answer, optionally with gateway quirks. */
export interface SuccessBehaviour {
  type: 'success';
  /** Overrides the emulator's delayMs for this answer. */
  delayMs?: number | undefined;
  /** data[].url items pointing at the emulator's own /files/… route instead of b64_json. */
  urlItems?: boolean | undefined;
  /** url items whose download is a PNG padded to this many bytes (png answers only; the benchmark's hostile gateway). */
  urlImageBytes?: number | undefined;
  /** url items (and stream completed events) with a `file_id` (`file-…`) beside the url, no b64_json. */
  fileIds?: boolean | undefined;
  /** url items whose download answers 404. */
  brokenUrl?: boolean | undefined;
  /**
   * url items (and task result links) served this long, then answered 403 as an expired signed link. A `tasks-result`
   * task's links live 10 minutes unless this says otherwise; other links do not expire. `0`: expired at once.
   */
  urlTtlMs?: number | undefined;
  /** `data: []`. */
  emptyData?: boolean | undefined;
  /**
   * Fewer images than `n`, without a word: an upstream that makes this many whatever was asked (1 for n=2, as some
   * do). `usage` counts the images made. Applies to JSON, streams and tasks alike.
   */
  imageCount?: number | undefined;
  /**
   * A relay that fans a request for n images out into n upstream calls of n=1 and aggregates them into one answer:
   * `data` holds the calls' images in call order, `usage` is the sum of theirs (the prompt and references counted
   * once per call), `created` is the answer's. `failed` calls made no image and billed nothing; the relay says
   * nothing of them (fewer images than n), and when all fail it answers the upstream's 502.
   * (AFreeCoder/apipool-v2#6: an upstream taking n=1 only, behind a new-api that fans out and aggregates.)
   */
  fanOut?: { failed?: number | undefined } | undefined;
  /** No `usage` object. */
  omitUsage?: boolean | undefined;
  /**
   * The shape of `usage`: OpenAI's with `input_tokens_details` ('details', the default), without it ('plain'), the
   * chat shape ('chat': prompt_tokens/completion_tokens), or with a reported cost ('cost': USD; 'ticks':
   * cost_in_usd_ticks). LiteLLM's x-litellm-response-cost header comes through `headers`.
   */
  usageShape?: 'details' | 'plain' | 'chat' | 'cost' | 'ticks' | undefined;
  /** Plain JSON even when the request asked for `stream: true`. */
  ignoreStream?: boolean | undefined;
  /** An event stream even without `stream: true` (some OpenAI-compatible services do this, image-gateway.md §4.2.3). */
  forceStream?: boolean | undefined;
  /** 'event' = `event:` + `data:` lines (OpenAI); 'bare' = new-api `data:` lines, `: PING` and `data: [DONE]`. @default 'event' */
  sseFraming?: 'event' | 'bare' | undefined;
  /** Images of 1024x1024 whatever size was asked (relays' "-all" models ignore `size`). */
  ignoreSize?: boolean | undefined;
  /** Image bytes of another format than requested. */
  wrongFormat?: boolean | undefined;
  headers?: Record<string, string> | undefined;
  /** Chat answers only (enqueueChat): the assistant's text. @default the last user text, "enhanced" (or a description and four prompts for an image) */
  content?: string | undefined;
  /**
   * Answer with a task to poll instead of images (README "Task answers"): `generation.task` (polled at
   * `GET /v1/images/generations/{id}`), `tasks-api` (new-api's task API, polled at `GET /v1/tasks/{task_id}`) or
   * `tasks-result` (APIMart's task API: submitted the same way, polled at the same route, its result links under
   * `result.images[].url`). The images (b64_json, or url items with `urlItems`; always links for `tasks-result`)
   * come with the last poll. Always plain JSON.
   */
  asTask?: 'generation.task' | 'tasks-api' | 'tasks-result' | undefined;
  /**
   * `tasks-result` only: how its result lists the links: `array` (the default, as APIMart answers: one item whose
   * `url` is an array of every image's link) or `string` (one item per image, `url` a string).
   */
  taskUrls?: 'array' | 'string' | undefined;
  /** Polls answered as pending before the task ends: the first half (rounded up) queued, the rest in progress; `Infinity` never ends. @default 2 */
  taskPolls?: number | undefined;
  /** How the task ends: with its images, failed, refused by moderation, or with a status no client knows. @default 'completed' */
  taskEnd?: 'completed' | 'failed' | 'moderated' | 'unknown-status' | undefined;
}

/** A gateway error from {@link ErrorPreset}. */
export interface ErrorBehaviour {
  type: 'error';
  preset: ErrorPreset;
  /** @default 'en' */
  lang?: 'en' | 'zh' | undefined;
  /** Retry-After header value. */
  retryAfter?: string | undefined;
  /** The parameter named by `unknown_parameter` (default: guessed from the request). */
  param?: string | undefined;
  headers?: Record<string, string> | undefined;
  /** Answer this long after the request arrived (a 524 comes after the proxy's timeout). @default 0 */
  delayMs?: number | undefined;
}

/** Exactly these bytes. */
export interface RawBehaviour {
  type: 'raw';
  status: number;
  headers?: Record<string, string> | undefined;
  body?: string | Buffer | undefined;
  /** Written one after another (after `body`, if both). */
  chunks?: (string | Buffer)[] | undefined;
  /** Destroy the socket after writing instead of ending the response. */
  destroyAfter?: boolean | undefined;
  /** Waited for after `body` is written and before `chunks` are (a test's own event, e.g. a preview seen). */
  gate?: Promise<unknown> | undefined;
}

/**
 * A stream that fails: SSE headers, the first `partials` partial-image events of the success stream, then an error
 * event `{"type":"error","error":{…}}` (image-gateway.md §2.5 "Error events").
 */
export interface StreamErrorBehaviour {
  type: 'stream-error';
  /** @default 0 */
  partials?: number | undefined;
  /** @default 'event' */
  sseFraming?: 'event' | 'bare' | undefined;
  /** @default 'Image generation failed' */
  message?: string | undefined;
}

/** What the emulator does with one request. */
export type Behaviour =
  | SuccessBehaviour
  | ErrorBehaviour
  | RawBehaviour
  | StreamErrorBehaviour
  | { type: 'reset' }
  | { type: 'truncate' }
  | { type: 'malformed' }
  | { type: 'oversized'; bytes: number };

/** Handle returned by {@link GatewayEmulator.hold}. */
export interface HeldRequest {
  /** Lets the held request continue. Safe to call more than once, or before it arrived. */
  release(): void;
  /** Resolves with the held request once it has arrived (body read, headers not yet sent). */
  arrived: Promise<RecordedRequest>;
}

/** Handle returned by {@link GatewayEmulator.holdBody}. */
export interface HeldBody {
  /** Resolves once the first part of the answer's body has been written (handed to the socket). */
  written: Promise<void>;
  /** Writes the rest and ends the answer. */
  release(): void;
  /** Destroys the connection instead: the answer stays cut off where it was held. */
  cut(): void;
}

/** A running emulator. */
export interface GatewayEmulator {
  /** `http://127.0.0.1:PORT/v1`; OpenRouter: `…/api/v1`; Azure: the resource endpoint `http://127.0.0.1:PORT` (its v1 base is `…/openai/v1`). */
  baseUrl: string;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** OpenRouter: the cost charged for each completed generation, in order (a failed one is not charged). */
  charges(): number[];
  apiKey: string;
  /** Every request received (models, images, url downloads), in arrival order. */
  requests: RecordedRequest[];
  /** Only POST /v1/images/*. */
  imageRequests(): RecordedRequest[];
  /** Only the GET polls of tasks (`/v1/images/generations/{id}`, `/v1/tasks/{task_id}`). */
  taskPolls(): RecordedRequest[];
  /** Behaviours consumed FIFO by the next image POSTs that pass auth and validation. */
  enqueue(...behaviours: Behaviour[]): void;
  /** Same for GET /v1/models. */
  enqueueModels(...behaviours: Behaviour[]): void;
  /**
   * Same for POST /v1/chat/completions: `{type:'success', content}` scripts the answer (plain, or streamed when the
   * request asked); errors, raw, reset, malformed and stream-error as for images.
   */
  enqueueChat(...behaviours: Behaviour[]): void;
  /** Only POST /v1/chat/completions. */
  chatRequests(): RecordedRequest[];
  /** Holds the next image POST (headers not sent) until release(). */
  hold(): HeldRequest;
  /**
   * Holds the next successful plain-JSON image answer after `fraction` (0–1) of its body bytes, until release() or
   * cut(): lets a test act while the answer is still arriving.
   */
  holdBody(fraction: number): HeldBody;
  /**
   * Holds the next chat completion POST (prompt help) once it has arrived and passed its checks, before its behaviour
   * answers, until released (or the emulator closes).
   */
  holdChat(): HeldRequest;
  /** Resolves when that many image POSTs have arrived. */
  waitForRequests(count: number): Promise<void>;
  /** Spec-validation problems of all requests, in arrival order. */
  specViolations: string[];
  /** Stops listening and destroys open sockets. */
  close(): Promise<void>;
}
