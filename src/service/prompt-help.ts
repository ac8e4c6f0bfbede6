/**
 * Prompt help (issue 19) from the gateway's chat models: *enhance* rewrites a member's prompt before generating,
 * *describe* turns an image into a short description and four prompts. The chat call is bounded by the adapter
 * (timeout, max tokens, one retry on busy) and never charges image quota. Enhance never fails a job: any failure
 * (the call, or an answer that is not a usable prompt) falls back to the member's own prompt.
 */
import type { Logger } from 'pino';
import { UserFacingError } from '../errors.js';
import { Prompt } from '../core/image-request.js';
import type { ChatCall } from './chat-cost.js';
import type { ChatCompletion, ChatMessage, PromptModel } from '../ports/prompt-model.js';
import type { ImageUsage } from '../core/images.js';

/** The system instruction of enhance. */
export const ENHANCE_INSTRUCTION =
  'You improve prompts for an image generation model. Rewrite the user message as one vivid, specific image prompt ' +
  '(subject, setting, style, composition, lighting) in the same language, keeping everything it asks for. ' +
  'Answer with the rewritten prompt only, at most 120 words, with no preamble and no quotes.';

/** The system instruction of describe. */
export const DESCRIBE_INSTRUCTION =
  'Describe the image in one or two sentences, then write four different prompts that would recreate it with an ' +
  'image generation model. Answer in exactly this form: the description on the first line, then four lines ' +
  'numbered 1. to 4., one prompt each, and nothing else.';

/** Options of {@link PromptHelp}. */
export interface PromptHelpOptions {
  chat: PromptModel;
  /** PROMPT_MODEL: the chat model enhance uses; undefined: enhance is off. */
  promptModel: string | undefined;
  /** VISION_MODEL (defaulting to PROMPT_MODEL): the model describe uses; undefined: describe is off. */
  visionModel: string | undefined;
  /** PROMPT_MAX_TOKENS: the longest answer asked for. */
  maxTokens: number;
  logger: Logger;
}

/** What a chat call of prompt help used, for the job's usage record. */
export interface PromptHelpUsage {
  model: string;
  usage?: ImageUsage | undefined;
  requestId?: string | undefined;
}

/** Enhance's outcome: the rewritten prompt, or the reason the member's own is used. */
export type Enhancement = { ok: true; prompt: string; used: PromptHelpUsage } | { ok: false; used?: PromptHelpUsage | undefined };

/** Describe's answer. */
export interface Description {
  description: string;
  prompts: string[];
  used: PromptHelpUsage;
}

/** See the module comment. */
export class PromptHelp {
  private readonly options: PromptHelpOptions;
  private readonly log: Logger;

  constructor(options: PromptHelpOptions) {
    this.options = options;
    this.log = options.logger.child({ module: 'prompt-help' });
  }

  /** Whether enhance is configured (PROMPT_MODEL). */
  get enhances(): boolean {
    return this.options.promptModel !== undefined;
  }

  /** Whether describe is configured (VISION_MODEL or PROMPT_MODEL). */
  get describes(): boolean {
    return this.options.visionModel !== undefined;
  }

  /** The chat call enhancing `prompt` would make (for its estimate), or undefined when enhance is off. */
  enhanceCall(prompt: string): ChatCall | undefined {
    const model = this.options.promptModel;
    return model === undefined
      ? undefined
      : { model, inputChars: ENHANCE_INSTRUCTION.length + prompt.length, imageTokens: 0, maxOutputTokens: this.options.maxTokens };
  }

  /** The chat call describing an image of at most `maxSide` pixels a side would make, or undefined when describe is off. */
  describeCall(maxSide: number): ChatCall | undefined {
    const model = this.options.visionModel;
    return model === undefined
      ? undefined
      : { model, inputChars: DESCRIBE_INSTRUCTION.length, imageTokens: visionTokens(maxSide), maxOutputTokens: this.options.maxTokens };
  }

  /** The rewritten prompt, or `ok: false` (never throws). `check` refuses a rewrite the image model cannot take. */
  async enhance(prompt: string, check: (rewritten: string) => void, signal?: AbortSignal): Promise<Enhancement> {
    const model = this.options.promptModel;
    if (model === undefined) return { ok: false };
    let answer: ChatCompletion;
    try {
      answer = await this.ask(model, ENHANCE_INSTRUCTION, prompt, signal);
    } catch (err) {
      this.log.warn({ err }, 'prompt enhancement failed; the prompt is used as written');
      return { ok: false };
    }
    const used = usedBy(answer);
    try {
      const rewritten = Prompt.parse(unquote(answer.text));
      check(rewritten);
      return { ok: true, prompt: rewritten, used };
    } catch (err) {
      this.log.warn(
        { reason: err instanceof UserFacingError ? err.identifier : 'not a prompt', requestId: answer.requestId },
        'enhanced prompt unusable; the prompt is used as written',
      );
      return { ok: false, used };
    }
  }

  /** A description of the image (a data URL) and four prompts. @throws UserFacingError('promptHelp.failed') */
  async describe(imageDataUrl: string, signal?: AbortSignal): Promise<Description> {
    const model = this.options.visionModel;
    if (model === undefined) throw new UserFacingError('promptHelp.off');
    let answer: ChatCompletion;
    try {
      answer = await this.ask(model, DESCRIBE_INSTRUCTION, [{ type: 'image_url', image_url: { url: imageDataUrl } }], signal);
    } catch (err) {
      this.log.warn({ err }, 'image description failed');
      throw new UserFacingError('promptHelp.failed');
    }
    const parsed = parseDescription(answer.text);
    if (!parsed) throw new UserFacingError('promptHelp.failed');
    return { ...parsed, used: usedBy(answer) };
  }

  /** One bounded chat call: the instruction as the system message, then the member's content. */
  private ask(model: string, instruction: string, content: ChatMessage['content'], signal: AbortSignal | undefined): Promise<ChatCompletion> {
    return this.options.chat.complete({
      model,
      maxTokens: this.options.maxTokens,
      signal,
      messages: [
        { role: 'system', content: instruction },
        { role: 'user', content },
      ],
    });
  }
}

/**
 * Input tokens of an image of up to `maxSide` pixels a side in a vision call, erring high: OpenAI's high-detail count
 * (scaled into 2048×2048, then its short side to 768; 85 + 170 per 512-pixel tile) of a square, the worst case.
 */
export function visionTokens(maxSide: number): number {
  const side = Math.min(maxSide, 768);
  const tiles = Math.ceil(side / 512) ** 2;
  return 85 + 170 * tiles;
}

/** What a chat answer used, for the job's usage record. */
const usedBy = (answer: ChatCompletion): PromptHelpUsage => ({ model: answer.model, usage: answer.usage, requestId: answer.requestId });

/** The description line and up to four numbered prompts of a describe answer; undefined when it has no prompt. */
export function parseDescription(text: string): { description: string; prompts: string[] } | undefined {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const numbered = /^(?:\d+[.)]|[-*•])\s*/;
  const prompts = lines
    .filter((l) => numbered.test(l))
    .map((l) => unquote(l.replace(numbered, '')))
    .filter((p) => Prompt.safeParse(p).success)
    .slice(0, 4);
  const description = lines.find((l) => !numbered.test(l)) ?? '';
  return prompts.length > 0 ? { description, prompts } : undefined;
}

/** Drops the quotes and a "Prompt:" label models like to add. */
function unquote(text: string): string {
  return text
    .trim()
    .replace(/^(?:enhanced |rewritten )?prompt:\s*/i, '')
    .replace(/^["'“”«»`]+|["'“”«»`]+$/g, '')
    .trim();
}
