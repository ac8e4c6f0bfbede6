/**
 * zod schemas of the chat completions answers prompt help reads: a plain answer (`chat.completion`) and the
 * chunks of a streamed one (`chat.completion.chunk`). Only what is read is required; the usage uses the image
 * answers' schema, which already reads the chat shape (`prompt_tokens`/`completion_tokens`).
 *
 * @see ../../../shared/spec/openai-openapi.json CreateChatCompletionResponse, CreateChatCompletionStreamResponse
 */
import { z } from 'zod';
import { ErrorObject, ImagesUsage } from './schemas.js';

/** A message's content: text, or (some relays) a list of text parts. */
const Content = z
  .union([z.string(), z.array(z.object({ type: z.string().optional(), text: z.string().optional() }).loose())])
  .nullish()
  .transform((content) => (Array.isArray(content) ? content.map((part) => part.text ?? '').join('') : (content ?? '')));

/** A plain chat completion. */
export const ChatCompletionResponse = z.object({
  model: z.string().optional(),
  choices: z.array(z.object({ message: z.object({ content: Content }).loose() }).loose()).optional(),
  usage: ImagesUsage.nullish().catch(undefined),
  /** one-api style: a 200 that carries an error. */
  error: ErrorObject.optional(),
});
export type ChatCompletionResponse = z.infer<typeof ChatCompletionResponse>;

/** One chunk of a streamed completion; the last may carry only the usage (`stream_options.include_usage`). */
export const ChatCompletionChunk = z.object({
  model: z.string().optional(),
  choices: z.array(z.object({ delta: z.object({ content: Content }).loose().optional() }).loose()).optional(),
  usage: ImagesUsage.nullish().catch(undefined),
  error: z.unknown().optional(),
});
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunk>;
