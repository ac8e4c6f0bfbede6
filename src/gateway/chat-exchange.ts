/**
 * One chat completions POST and its answer: send the JSON body, classify an error status like the image
 * endpoints do, then read plain JSON or an event stream (whatever the Content-Type says) into the answer's text.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ChatCompletion, ChatCompletionRequest } from '../ports/prompt-model.js';
import type { Clock } from '../ports/clock.js';
import type { CallScope } from './call-scope.js';
import { ChatCompletionChunk, ChatCompletionResponse, type ChatCompletionChunk as Chunk } from './chat-schemas.js';
import { GatewayHttpError, GatewayResponseError } from './errors.js';
import type { GatewayDialect } from './dialect.js';
import type { GatewayHttp, GatewayResponse } from './http.js';
import { malformed } from './json-answer.js';
import { findRequestId, headerValue } from './request-id.js';
import { ErrorObject, parseJson, type ImagesUsage } from './schemas.js';
import { normaliseUsage } from './usage.js';

/** What every chat attempt shares (fixed per client). */
export interface ChatExchangeContext {
  http: GatewayHttp;
  /** Where a completion goes (Azure: the model's deployment). */
  dialect: Pick<GatewayDialect, 'chatRoute'>;
  /** Largest answer (or error body) read. */
  maxResponseBytes: number;
  clock: Clock;
}

/** One attempt of one completion. */
export interface ChatAttempt {
  request: ChatCompletionRequest;
  stream: boolean;
  idempotencyKey: string;
}

/** The body as the gateway gets it (OpenAI's CreateChatCompletionRequest). */
export function chatBody({ request, stream }: Pick<ChatAttempt, 'request' | 'stream'>): string {
  return JSON.stringify({
    model: request.model,
    messages: request.messages,
    max_tokens: request.maxTokens,
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
}

/** Sends one attempt and reads its answer; rejects with a GatewayError. */
export async function exchangeChat(ctx: ChatExchangeContext, attempt: ChatAttempt, scope: CallScope): Promise<ChatCompletion> {
  const headers = {
    'content-type': 'application/json',
    accept: attempt.stream ? 'text/event-stream, application/json' : 'application/json',
    'idempotency-key': attempt.idempotencyKey,
  };
  const route = ctx.dialect.chatRoute(attempt.request.model);
  const body = chatBody({ request: { ...attempt.request, model: route.model }, stream: attempt.stream });
  const res = await ctx.http.send({ method: 'POST', path: route.path, headers, body }, scope);
  const requestId = findRequestId(res.headers);
  const text = (await ctx.http.readCapped(res, ctx.maxResponseBytes, scope, requestId)).toString('utf8');
  if (res.statusCode >= 400) throw GatewayHttpError.fromResponse(res.statusCode, text, res.headers, ctx.clock.now());
  const streamed = /text\/event-stream/i.test(headerValue(res.headers, 'content-type') ?? '');
  const answer = streamed ? readStream(text, requestId) : readPlain(text, res, requestId, ctx.clock);
  if (answer.text.trim() === '')
    throw new GatewayResponseError('chat model answered with no text', { category: 'gateway_failure', code: 'empty_answer', requestId });
  return {
    text: answer.text.trim(),
    model: answer.model ?? attempt.request.model,
    usage: normaliseUsage(answer.usage, res.headers),
    requestId,
  };
}

interface ReadAnswer {
  text: string;
  model?: string | undefined;
  usage?: ImagesUsage | undefined;
}

function readPlain(text: string, res: GatewayResponse, requestId: string | undefined, clock: Clock): ReadAnswer {
  const parsed = ChatCompletionResponse.safeParse(parseJson(text));
  if (!parsed.success) throw malformed(requestId);
  if (parsed.data.error !== undefined && !parsed.data.choices?.length) throw GatewayHttpError.fromResponse(undefined, text, res.headers, clock.now());
  return { text: parsed.data.choices?.[0]?.message.content ?? '', model: parsed.data.model, usage: parsed.data.usage ?? undefined };
}

/** Joins the chunks' deltas; an error event (or a chunk carrying `error`) fails the answer. */
function readStream(text: string, requestId: string | undefined): ReadAnswer {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  parser.feed(text.endsWith('\n\n') ? text : `${text}\n\n`);
  const answer: ReadAnswer = { text: '' };
  for (const event of events) {
    if (event.data.trim() === '[DONE]') break;
    const value = parseJson(event.data);
    const chunk = ChatCompletionChunk.safeParse(value);
    if (!chunk.success) throw malformed(requestId);
    if (event.event === 'error' || chunk.data.error !== undefined) throw streamError(chunk.data, requestId);
    answer.text += chunk.data.choices?.[0]?.delta?.content ?? '';
    answer.model ??= chunk.data.model;
    if (chunk.data.usage) answer.usage = chunk.data.usage;
  }
  return answer;
}

function streamError(chunk: Chunk, requestId: string | undefined): GatewayHttpError {
  const object = ErrorObject.safeParse(chunk.error);
  const info = object.success
    ? { code: object.data.code, type: object.data.type ?? undefined, param: object.data.param, message: object.data.message ?? '' }
    : { message: '' };
  return GatewayHttpError.fromFailure(info, requestId);
}
