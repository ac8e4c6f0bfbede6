/**
 * The PromptModel port over the gateway's chat completions (`POST {base}/chat/completions`): the image client's
 * transport (GatewayHttp: the key, capped reads), error classification, request ids and retry rules, bounded
 * tighter because prompt help must never hold a job up for long: a short deadline, `max_tokens`, and by default
 * one retry, only of a failure that cannot have reached the model (busy, refused before sending).
 *
 * Logs carry the model, request id, status, token counts and duration; never the messages (members' prompts and
 * images) nor the key.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type pino from 'pino';
import { systemClock, type Clock } from '../ports/clock.js';
import { type ChatCompletion, type ChatCompletionRequest, type PromptModel } from '../ports/prompt-model.js';
import { CallScope } from './call-scope.js';
import { exchangeChat, type ChatExchangeContext } from './chat-exchange.js';
import type { GatewayDialect } from './dialect.js';
import { openAiDialect } from './openai-dialect.js';
import { GatewayHttpError } from './errors.js';
import { GatewayHttp, type GatewayHttpOptions } from './http.js';
import { toGatewayError } from './http-errors.js';
import { retryDelay, retryLimit } from './retry.js';

/** Options of {@link ChatClient}. */
export interface ChatClientOptions {
  /** Base URL including `/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` (Azure: `api-key`); never logged. */
  apiKey: string;
  /** The API the gateway speaks, shared with the image client. @default the OpenAI dialect */
  dialect?: GatewayDialect | undefined;
  /** The undici Agent (createGatewayAgent), shared with the image client. */
  dispatcher: GatewayHttpOptions['dispatcher'];
  logger: pino.Logger;
  /** PROMPT_TIMEOUT_MS: total time of one completion, its retry included. @default 30_000 */
  deadlineMs?: number | undefined;
  /** Retries of a failure that cannot have reached the model. @default 1 */
  maxRetries?: number | undefined;
  /** Ask for an event stream (the answer is read either way, whatever the gateway sends). @default false */
  stream?: boolean | undefined;
  /** Largest answer read. @default 1_048_576 */
  maxResponseBytes?: number | undefined;
  /** Longest Retry-After honoured. @default 5_000 */
  retryAfterCapMs?: number | undefined;
  /** Waits between retries; must reject when the signal aborts. @default node:timers/promises setTimeout */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  /** Source of backoff jitter in [0, 1). @default Math.random */
  random?: (() => number) | undefined;
  clock?: Clock | undefined;
}

const defaultSleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
  await delay(ms, undefined, signal ? { signal } : {});
};

/** See the module comment. */
export class ChatClient implements PromptModel {
  private readonly ctx: ChatExchangeContext;
  private readonly log: pino.Logger;
  private readonly deadlineMs: number;
  private readonly maxRetries: number;
  private readonly stream: boolean;
  private readonly retryAfterCapMs: number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;

  constructor(opts: ChatClientOptions) {
    this.log = opts.logger.child({ module: 'gateway-chat' });
    const dialect = opts.dialect ?? openAiDialect;
    this.ctx = {
      http: new GatewayHttp({ baseUrl: opts.baseUrl, apiKey: opts.apiKey, dispatcher: opts.dispatcher, keyHeader: dialect.keyHeader }),
      dialect,
      maxResponseBytes: opts.maxResponseBytes ?? 1024 * 1024,
      clock: opts.clock ?? systemClock,
    };
    this.deadlineMs = opts.deadlineMs ?? 30_000;
    this.maxRetries = opts.maxRetries ?? 1;
    this.stream = opts.stream ?? false;
    this.retryAfterCapMs = opts.retryAfterCapMs ?? 5_000;
    this.sleep = opts.sleep ?? defaultSleep;
    this.random = opts.random ?? Math.random;
  }

  /** One completion. @throws GatewayError */
  async complete(request: ChatCompletionRequest): Promise<ChatCompletion> {
    const scope = new CallScope(this.deadlineMs, request.signal);
    const started = this.ctx.clock.now();
    const idempotencyKey = randomUUID();
    try {
      for (let retry = 0; ; retry += 1) {
        try {
          scope.throwIfEnded();
          const answer = await exchangeChat(this.ctx, { request, stream: this.stream, idempotencyKey }, scope);
          const durationMs = this.ctx.clock.now() - started;
          this.log.info({ model: answer.model, requestId: answer.requestId, usage: answer.usage, durationMs }, 'chat completion done');
          return answer;
        } catch (err) {
          const error = toGatewayError(err, scope);
          const retryAfterMs = error instanceof GatewayHttpError ? error.retryAfterMs : undefined;
          const wait = retry < retryLimit(error, this.maxRetries) ? retryDelay(retry, retryAfterMs, this.retryAfterCapMs, this.random) : undefined;
          if (wait === undefined || wait >= scope.remainingMs()) throw error;
          this.log.warn({ err: error, category: error.category, status: error.status, requestId: error.requestId, delayMs: wait }, 'chat request retried');
          await this.sleep(wait, scope.signal).catch((cause: unknown) => {
            throw toGatewayError(cause, scope, error.requestId);
          });
        }
      }
    } catch (err) {
      const error = toGatewayError(err, scope);
      const durationMs = this.ctx.clock.now() - started;
      this.log.warn(
        { err: error, model: request.model, category: error.category, status: error.status, requestId: error.requestId, durationMs },
        'chat request failed',
      );
      throw error;
    } finally {
      scope.dispose();
    }
  }
}
