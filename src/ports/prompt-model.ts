/** The prompt model port: the gateway's chat models as prompt help (enhance, describe) uses them. */
import type { ImageUsage } from '../core/images.js';

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
