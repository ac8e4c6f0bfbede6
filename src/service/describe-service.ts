/**
 * Prompt help's describe (issue 19): one image, downloaded under the same rules as a reference (host allow-list,
 * declared size, ATTACHMENT_MAX_BYTES), goes as a data URL to the vision model, which answers a short description
 * and four prompts. The prompts are stored (RecordStore, like the job archive) under a short id that the
 * **Imagine this** buttons carry, so they work after a restart; a click starts a normal /imagine job, every gate
 * applied. Nothing is charged: no image is made here, but the chat call's tokens are recorded (`describe-usage`
 * records, kept as long as jobs' usage). The image and its data URL are held within the process's memory budget,
 * like an edit's references: however many members describe at once, memory has its ceiling.
 */
import type { Logger } from 'pino';
import { z } from 'zod';
import { UserFacingError } from '../errors.js';
import { Prompt } from './image-request.js';
import { DEFAULT_MAX_DECODE_PIXELS, sniffImageFormat } from './image-rules.js';
import { checkedHeader } from './decode-guard.js';
import { largerThan, phrase } from './phrase.js';
import { newJobId, type AttachmentRef } from './jobs.js';
import type { MemoryBudget, Release } from './memory-budget.js';
import type { ModerationGate } from './moderation-gate.js';
import type { Clock, RecordStore } from './ports.js';
import type { Description, PromptHelp } from './prompt-help.js';
import { checkPromptHelp, DEFAULT_SETTINGS } from './server-settings.js';
import type { SettingsStore } from './settings-store.js';
import { JOB_USAGE_TTL_MS, type DescribeUsage } from './usage-log.js';

/** A describe answer's prompts, as stored for its buttons. */
export const DescribedPrompts = z.object({ v: z.literal(1), prompts: z.array(Prompt).min(1).max(4) });
export type DescribedPrompts = z.infer<typeof DescribedPrompts>;

/** Formats a vision model reads. */
const READABLE = new Set(['png', 'jpeg', 'webp', 'gif']);

/** Options of {@link DescribeService}. */
export interface DescribeServiceOptions {
  help: Pick<PromptHelp, 'describe'>;
  records: RecordStore<DescribedPrompts>;
  /** Downloads a member attachment (host allow-list applied), reading no more than `maxBytes`. */
  download: (ref: AttachmentRef, maxBytes: number, signal?: AbortSignal) => Promise<Buffer>;
  /** ATTACHMENT_MAX_BYTES. */
  maxAttachmentBytes: number;
  /** MAX_DECODE_PIXELS (decode-guard.ts). @default 50_000_000 */
  maxDecodePixels?: number | undefined;
  /** How long the Imagine this buttons work (BUTTON_TTL_HOURS). */
  ttlMs: number;
  settings?: Pick<SettingsStore, 'get'> | undefined;
  /** Moderation strikes: a member paused by them is refused before anything is downloaded or sent. */
  moderation?: Pick<ModerationGate, 'check'> | undefined;
  /** The process's image memory budget (the edits' one); without it, nothing bounds describes held at once. */
  memory?: Pick<MemoryBudget, 'takeReferences' | 'referenceBytes'> | undefined;
  /** Where each description's chat usage is recorded; without it, it is only logged. */
  usage?: RecordStore<DescribeUsage> | undefined;
  clock?: Clock | undefined;
  logger: Logger;
}

/**
 * What describing an image of `bytes` holds at its peak: the image, its base64 data URL, the request body that
 * carries it as a string and as bytes (base64 is 4/3 of the image).
 */
export function describeHeldBytes(bytes: number): number {
  return bytes + 3 * Math.ceil((bytes * 4) / 3);
}

/** Where describe is asked (the server, null outside servers; the channel, or a thread's parent) and by whom. */
export interface DescribePlace {
  guildId: string | null;
  /** The channel, or for a thread its parent. */
  channelId: string | null;
  userId: string;
  /** A thread whose parent is not known: the channel rules fail closed. */
  parentUnknown?: boolean | undefined;
}

/** A description with the id of its stored prompts. */
export interface DescribeAnswer {
  id: string;
  description: string;
  prompts: string[];
}

/** See the module comment. */
export class DescribeService {
  private readonly options: DescribeServiceOptions;
  private readonly log: Logger;

  constructor(options: DescribeServiceOptions) {
    this.options = options;
    this.log = options.logger.child({ module: 'describe' });
  }

  /** Describes `image`. @throws UserFacingError (off here, a bad image, or the model failed) */
  async describe(place: DescribePlace, image: AttachmentRef): Promise<DescribeAnswer> {
    const settings = place.guildId === null ? DEFAULT_SETTINGS : ((await this.options.settings?.get(place.guildId)) ?? DEFAULT_SETTINGS);
    checkPromptHelp(settings, place.channelId, place.parentUnknown);
    await this.options.moderation?.check({ guildId: place.guildId, userId: place.userId });
    const max = this.options.maxAttachmentBytes;
    if (image.size !== undefined && image.size > max) throw new UserFacingError('input.attachmentInvalid', { param: image.filename, detail: largerThan(max) });
    const release = await this.takeMemory(image.size ?? max);
    let described: Description;
    try {
      described = await this.read(image, max);
    } finally {
      release?.();
    }
    const id = newJobId();
    await this.options.records.set(id, { v: 1, prompts: described.prompts }, this.options.ttlMs);
    this.log.info({ describeId: id, prompts: described.prompts.length, model: described.used.model, usage: described.used.usage }, 'image described');
    await this.options.usage
      ?.set(id, { v: 1, describeId: id, guildId: place.guildId, userId: place.userId, promptHelp: described.used, settledAt: this.now() }, JOB_USAGE_TTL_MS)
      .catch((err: unknown) => this.log.warn({ err, describeId: id }, 'could not record the description’s usage'));
    return { id, description: described.description, prompts: described.prompts };
  }

  /** Downloads `image` (reading at most what Discord declared, or `max`) and asks the vision model about it. */
  private async read(image: AttachmentRef, max: number): Promise<Description> {
    const bytes = await this.options.download(image, image.size ?? max);
    const format = sniffImageFormat(bytes);
    if (format === undefined || !READABLE.has(format))
      throw new UserFacingError('input.attachmentInvalid', { param: image.filename, detail: phrase('detail.image.notDescribable') });
    // Its header, before the vision model decodes it: more than MAX_DECODE_PIXELS is refused.
    await checkedHeader(bytes, this.options.maxDecodePixels ?? DEFAULT_MAX_DECODE_PIXELS, image.filename);
    return this.options.help.describe(`data:image/${format};base64,${bytes.toString('base64')}`);
  }

  /** Room in the memory budget for an image of at most `bytes` (waiting while it does not fit), capped at the budget's. */
  private takeMemory(bytes: number): Promise<Release> | undefined {
    const memory = this.options.memory;
    return memory?.takeReferences(Math.min(describeHeldBytes(bytes), memory.referenceBytes));
  }

  private now(): number {
    return this.options.clock?.now() ?? Date.now();
  }

  /** The `index`-th prompt of a stored description, or undefined once it has expired. */
  async prompt(id: string, index: number): Promise<string | undefined> {
    return (await this.options.records.get(id))?.prompts[index];
  }
}
