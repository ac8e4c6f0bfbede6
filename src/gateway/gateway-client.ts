/**
 * The gateway client: the ImageGateway port over undici, with bounded retries, the documented recoveries, a total
 * deadline and the model catalogue. Requests arrive validated by the service (the port's contract); it does not
 * check them again.
 *
 * @see ../../../shared/docs/image-gateway.md
 * @see ../../../shared/docs/gateway-interface.md
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type pino from 'pino';
import { systemClock, type Clock } from '../ports/clock.js';
import { type EditRequest, type GatewayModel, type GenerateRequest, type ImageResult } from '../core/images.js';
import { type GatewayCallOptions, type ImageGateway, type ImageStream } from '../ports/image-gateway.js';
import { CallScope } from './call-scope.js';
import { imageStream, type ImageCall } from './image-stream.js';
import { GatewayHttpError, type GatewayError } from './errors.js';
import { exchangeImages, type ExchangeContext, type ExchangeResult } from './image-exchange.js';
import { DefaultModel } from './default-model.js';
import type { GatewayDialect } from './dialect.js';
import { openAiDialect } from './openai-dialect.js';
import { ModelCatalogue } from './models.js';
import { buildWireParams, modelOf, type WireParams } from './params.js';
import { ModelProfiles } from '../core/model-profiles.js';
import { DEFAULT_MAX_DECODE_PIXELS } from './decode.js';
import { planRecovery, type RecoveryState } from './recovery.js';
import { retryDelay, retryLimit } from './retry.js';
import { GatewayHttp, type GatewayHttpOptions } from './http.js';
import { toGatewayError } from './http-errors.js';

/** Options of GatewayClient. */
export interface GatewayClientOptions {
  /** Base URL including `/v1`, without a trailing slash needed. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` (Azure: `api-key`); never logged. */
  apiKey: string;
  /** The API the gateway speaks (dialect.ts). @default the OpenAI dialect */
  dialect?: GatewayDialect | undefined;
  /** The undici Agent from createGatewayAgent (connect, header and body timeouts live there). */
  dispatcher: GatewayHttpOptions['dispatcher'];
  /**
   * DEFAULT_IMAGE_MODEL: the model used when a request names none, while the gateway lists it; unset or unlisted,
   * the best model the gateway lists is used instead (default-model.ts).
   */
  defaultModel?: string | undefined;
  logger: pino.Logger;
  /** Total time for one logical request, retries and recoveries included. @default 180_000 */
  deadlineMs?: number | undefined;
  /** Retries of a failure that cannot have produced an image. @default 2 */
  maxRetries?: number | undefined;
  /** Largest response body (JSON, stream or downloaded image) accepted. @default 67_108_864 (64 MiB) */
  maxResponseBytes?: number | undefined;
  /** Most pixels (width x height, as an image's header declares them) an answer's image may have. @default 50_000_000 */
  maxDecodePixels?: number | undefined;
  /** Longest Retry-After honoured. @default 30_000 */
  retryAfterCapMs?: number | undefined;
  /** How long the model catalogue is cached. @default 300_000 (5 min) */
  modelsTtlMs?: number | undefined;
  /** Body bytes read per event-loop turn, over all of this client's answers. @default TURN_BYTES (1 MiB) */
  turnBytes?: number | undefined;
  /** Timeout of one `url` image download. @default 60_000 */
  downloadTimeoutMs?: number | undefined;
  /** First wait before polling a task the gateway answered with; later waits grow to 10 s. @default 1_000 */
  taskPollMs?: number | undefined;
  /** What each model accepts; a request carries only that. @default the built-in profiles */
  profiles?: ModelProfiles | undefined;
  /**
   * Where `url` image items may be fetched from (a LinkPolicy) and the Agent that fetches them (createGatewayAgent
   * with the policy's lookup). @default the gateway's own host only, and never an internal address
   */
  links?: GatewayHttpOptions['links'];
  /** Waits between retries and between task polls; must reject when the signal aborts. @default node:timers/promises setTimeout */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  /** Source of backoff jitter in [0, 1). @default Math.random */
  random?: (() => number) | undefined;
  /** @default systemClock */
  clock?: Clock | undefined;
}

/** How long a model whose gateway refused streaming is asked without it. */
const STREAM_REFUSAL_MS = 3_600_000;

const defaultSleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
  await delay(ms, undefined, signal ? { signal } : {});
};

/** ImageGateway over an OpenAI-compatible (one-api/new-api family) image gateway. */
export class GatewayClient implements ImageGateway {
  private readonly ctx: ExchangeContext;
  private readonly defaults: DefaultModel;
  private readonly profiles: ModelProfiles;
  /** Models whose gateway refused streaming, with when to try streaming them again. */
  private readonly streamRefusedUntil = new Map<string, number>();
  private readonly log: pino.Logger;
  private readonly deadlineMs: number;
  private readonly maxRetries: number;
  private readonly retryAfterCapMs: number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private readonly catalogue: ModelCatalogue;

  constructor(opts: GatewayClientOptions) {
    const clock = opts.clock ?? systemClock;
    this.log = opts.logger.child({ module: 'gateway' });
    const dialect = opts.dialect ?? openAiDialect;
    const { baseUrl, apiKey, dispatcher, turnBytes, links } = opts;
    this.ctx = {
      http: new GatewayHttp({ baseUrl, apiKey, dispatcher, turnBytes, links, keyHeader: dialect.keyHeader }),
      dialect,
      maxResponseBytes: opts.maxResponseBytes ?? 64 * 1024 * 1024,
      maxDecodePixels: opts.maxDecodePixels ?? DEFAULT_MAX_DECODE_PIXELS,
      downloadTimeoutMs: opts.downloadTimeoutMs ?? 60_000,
      clock,
      log: this.log,
      taskPoll: { intervalMs: opts.taskPollMs ?? 1_000, sleep: opts.sleep ?? defaultSleep },
    };
    this.profiles = opts.profiles ?? new ModelProfiles();
    this.defaults = new DefaultModel({ configured: opts.defaultModel, host: new URL(opts.baseUrl).host, clock, logger: this.log });
    this.deadlineMs = opts.deadlineMs ?? 180_000;
    this.maxRetries = opts.maxRetries ?? 2;
    this.retryAfterCapMs = opts.retryAfterCapMs ?? 30_000;
    this.sleep = opts.sleep ?? defaultSleep;
    this.random = opts.random ?? Math.random;
    this.catalogue = new ModelCatalogue({
      defaultModel: () => this.defaults.current,
      onListed: (models) => {
        this.defaults.update(models);
        this.profiles.learn(new Map(models.flatMap((m) => (m.profile ? [[m.id, m.profile] as const] : []))));
      },
      ttlMs: opts.modelsTtlMs ?? 300_000,
      clock,
      logger: this.log,
      fetchModels: (signal) => dialect.fetchModels(this.ctx, signal),
    });
  }

  /** Text-to-image, as a stream of events (image-stream.ts). Throws from the iteration: ImageInputError for a bad call option, before any request; GatewayError after. */
  generate(request: GenerateRequest, options: GatewayCallOptions = {}): ImageStream {
    return imageStream(async (events, signal) => {
      const model = request.model ?? this.defaults.current;
      const params = buildWireParams(request, model, this.streamable(model, options), this.profiles.of(model).profile);
      return this.run('generations', params, undefined, { ...options, signal, events });
    }, options.signal);
  }

  /** Image-to-image (multipart), as a stream of events; throws from the iteration as {@link generate} does. */
  edit(request: EditRequest, options: GatewayCallOptions = {}): ImageStream {
    return imageStream(async (events, signal) => {
      const model = request.model ?? this.defaults.current;
      const params = buildWireParams(request, model, this.streamable(model, options), this.profiles.of(model).profile);
      return this.run('edits', params, request, { ...options, signal, events });
    }, options.signal);
  }

  listModels(options: { signal?: AbortSignal | undefined } = {}): Promise<GatewayModel[]> {
    return this.catalogue.list(options.signal);
  }

  cachedModels(): GatewayModel[] {
    return this.catalogue.cached();
  }

  /** When the model catalogue was last fetched successfully (clock time; readiness), undefined before the first. */
  catalogueFetchedAt(): number | undefined {
    return this.catalogue.fetchedAt;
  }

  /** One uncached `GET /models` within `timeoutMs` (the start-up check): the ids, or a GatewayError. */
  /** The model a request without one uses now. */
  get defaultModel(): string {
    return this.defaults.current;
  }

  /** The start-up check's listing, within `timeoutMs`; it also chooses the default and refreshes the catalogue. */
  async probeModels(timeoutMs: number): Promise<string[]> {
    const models = await this.ctx.dialect.fetchModels(this.ctx, undefined, timeoutMs);
    this.catalogue.accept(models);
    return models.map((m) => m.id);
  }

  /** The call's options, without streaming while the gateway is known to refuse it for `model`. */
  private streamable(model: string, options: GatewayCallOptions): GatewayCallOptions {
    const until = this.streamRefusedUntil.get(model);
    if (until === undefined || !options.stream) return options;
    if (this.ctx.clock.now() < until) return { ...options, stream: false, partialImages: undefined };
    this.streamRefusedUntil.delete(model);
    return options;
  }

  /** Remembers, for an hour, that the gateway refused to stream `model`. */
  private rememberStreamRefusal(model: string, state: RecoveryState): void {
    if (!state.droppedParams.includes('stream')) return;
    this.streamRefusedUntil.set(model, this.ctx.clock.now() + STREAM_REFUSAL_MS);
    this.log.info({ model }, `the gateway refused to stream ${model}: asking without streaming for an hour`);
  }

  private async run(endpoint: 'generations' | 'edits', first: WireParams, edit: EditRequest | undefined, call: ImageCall): Promise<ImageResult> {
    const scope = new CallScope(this.deadlineMs, call.signal);
    const state: RecoveryState = { droppedParams: [] };
    const started = this.ctx.clock.now();
    let params = first;
    try {
      scope.throwIfEnded();
      for (;;) {
        try {
          const result = await this.withRetries({ endpoint, params, edit, call }, scope);
          this.log.info(
            { endpoint, requestId: result.requestId, images: result.images.length, durationMs: this.ctx.clock.now() - started },
            'image request completed',
          );
          this.rememberStreamRefusal(modelOf(params), state);
          return { ...result, model: modelOf(params), sizeFallback: state.sizeFallback, droppedParams: state.droppedParams };
        } catch (err) {
          const next = planRecovery(err, params, state);
          if (!next) throw err;
          this.log.warn({ err, endpoint, sizeFallback: state.sizeFallback, droppedParams: state.droppedParams }, 'gateway request adjusted and retried');
          params = next;
        }
      }
    } catch (err) {
      const error = toGatewayError(err, scope);
      this.log.warn(
        { err: error, endpoint, category: error.category, status: error.status, requestId: error.requestId, durationMs: this.ctx.clock.now() - started },
        'image request failed',
      );
      throw error;
    } finally {
      scope.dispose();
    }
  }

  private async withRetries(
    req: { endpoint: 'generations' | 'edits'; params: WireParams; edit: EditRequest | undefined; call: ImageCall },
    scope: CallScope,
  ): Promise<ExchangeResult> {
    // One key per logical request body: retries reuse it, a recovery (different body) gets a new one.
    const idempotencyKey = randomUUID();
    for (let retry = 0; ; retry += 1) {
      try {
        return await exchangeImages(this.ctx, { ...req, idempotencyKey, retry }, scope);
      } catch (err) {
        const error = toGatewayError(err, scope);
        const wait = this.retryWait(error, retry, scope);
        if (wait === undefined) throw error;
        this.log.warn(
          { err: error, category: error.category, status: error.status, requestId: error.requestId, retry: retry + 1, delayMs: wait },
          'gateway request retried',
        );
        await this.sleep(wait, scope.signal).catch((cause: unknown) => {
          throw toGatewayError(cause, scope, error.requestId);
        });
      }
    }
  }

  /** Milliseconds to wait before retrying, or undefined when this failure must not be retried. */
  private retryWait(error: GatewayError, retry: number, scope: CallScope): number | undefined {
    if (retry >= retryLimit(error, this.maxRetries)) return undefined;
    const retryAfterMs = error instanceof GatewayHttpError ? error.retryAfterMs : undefined;
    const wait = retryDelay(retry, retryAfterMs, this.retryAfterCapMs, this.random);
    // Waiting past the deadline only to be cut off helps nobody: report the failure now.
    return wait < scope.remainingMs() ? wait : undefined;
  }
}
