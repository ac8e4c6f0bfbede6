/**
 * Prompt help's describe (issue 19): one image, downloaded under the same rules as a reference (host allow-list,
 * declared size, ATTACHMENT_MAX_BYTES), goes as a data URL to the vision model, which answers a short description
 * and four prompts. The prompts are stored (RecordStore, like the job archive) under a short id that the
 * **Imagine this** buttons carry, so they work after a restart; a click starts a normal /imagine job, every gate
 * applied.
 *
 * Metered (issue 29): no image quota is taken, but the chat call is a cost like an image's. Where a money limit
 * applies, the call's estimate (chat-cost.ts: a 2048 px image, the instruction, the longest answer) is held in the
 * spend ledger before anything is downloaded, and once the model has answered its cost (reported, or its usage ×
 * the vision model's prices) is charged; a describe that fails before an answer gives the hold back. A limit that
 * applies to a model of unknown prices refuses it. An admin's cap on describes per member and period is taken
 * atomically first (describe-cap.ts) and given back when the describe fails. Each description is recorded
 * (`describe-usage` records, kept as long as jobs' usage) and counted in the server's usage totals, so /usage and
 * its CSV show it.
 *
 * Bounded (issue 28): one describe per member at a time and a cooldown between them (describe-gate.ts); the whole
 * describe (room, download, downscale, vision call) within a time limit. Its bytes are held in the describes' own
 * region of the memory budget (memory-budget.ts), never the references' an edit waits for: room for the image as
 * Discord declares it plus the downscale's work is taken before the download, more is taken (without waiting) as
 * the bytes actually arrive beyond it, and once the image is downscaled (vision-image.ts: about 2048 px, at most
 * 4 MB) only what its data URL and request hold is kept until the vision model has answered.
 */
import type { Logger } from 'pino';
import { z } from 'zod';
import { UserFacingError } from '../errors.js';
import { Prompt } from './image-request.js';
import { DEFAULT_MAX_DECODE_PIXELS, sniffImageFormat } from './image-rules.js';
import { checkedHeader } from './decode-guard.js';
import { largerThan, phrase } from './phrase.js';
import { newJobId, type AttachmentRef } from './jobs.js';
import type { DescribeHold, MemoryBudget } from './memory-budget.js';
import { DescribeGate } from './describe-gate.js';
import { DOWNSCALE_WORK_BYTES, VISION_MAX_BYTES, visionImage } from './vision-image.js';
import type { ModerationGate } from './moderation-gate.js';
import type { Clock, DescribeCounts, QuotaSubject, RecordStore, SpendLedger } from './ports.js';
import { chatCostOf, estimateChatCost } from './chat-cost.js';
import { costOf, type JobCost, type ModelPrices } from './cost.js';
import { takeDescribePlace } from './describe-cap.js';
import { isoDate } from './periods.js';
import type { UsageTotals } from './usage-totals.js';
import { VISION_MAX_SIDE } from './vision-image.js';
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
  /** Without `describeCall`, no estimate is known (a money limit then refuses the describe as unpriced). */
  help: Pick<PromptHelp, 'describe'> & Partial<Pick<PromptHelp, 'describeCall'>>;
  records: RecordStore<DescribedPrompts>;
  /**
   * Downloads a member attachment (host allow-list applied), reading no more than `maxBytes`, telling `admit` the
   * bytes it is about to hold (which may refuse by throwing), stopping when `signal` aborts.
   */
  download: (ref: AttachmentRef, maxBytes: number, signal?: AbortSignal, admit?: (bytes: number) => void) => Promise<Buffer>;
  /** ATTACHMENT_MAX_BYTES. */
  maxAttachmentBytes: number;
  /** MAX_DECODE_PIXELS (decode-guard.ts). @default 50_000_000 */
  maxDecodePixels?: number | undefined;
  /** How long the Imagine this buttons work (BUTTON_TTL_HOURS). */
  ttlMs: number;
  settings?: Pick<SettingsStore, 'get'> | undefined;
  /** Moderation strikes: a member paused by them is refused before anything is downloaded or sent. */
  moderation?: Pick<ModerationGate, 'check'> | undefined;
  /** The process's memory budget, whose describes' region holds them; without it, nothing bounds describes held at once. */
  memory?: Pick<MemoryBudget, 'takeDescribe' | 'describeBytes'> | undefined;
  /** DESCRIBE_COOLDOWN_SECONDS in milliseconds: how long after one describe starts the member's next may. @default 0 */
  cooldownMs?: number | undefined;
  /** The longest one describe takes, room, download, downscale and vision call together. @default 120000 */
  timeLimitMs?: number | undefined;
  /** Where each description's chat usage is recorded; without it, it is only logged. */
  usage?: RecordStore<DescribeUsage> | undefined;
  /** The money limits: a describe's estimate is held before its call, its cost charged after. */
  spend?: Pick<SpendLedger, 'reserve' | 'commit' | 'refund' | 'status'> | undefined;
  /** A chat model's prices (MODEL_PROFILES_FILE over the built-in ones); without it, none are known. */
  pricesOf?: ((model: string) => ModelPrices | undefined) | undefined;
  /** The servers' usage totals: each description counts its chat call and cost. */
  totals?: Pick<UsageTotals, 'add'> | undefined;
  /** Where the admins' describes cap is counted; without it, the cap is not enforced. */
  counts?: DescribeCounts | undefined;
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
  /** The member's role ids on the server (money limits set for a role apply). */
  roleIds?: readonly string[] | undefined;
  /** A thread whose parent is not known: the channel rules fail closed. */
  parentUnknown?: boolean | undefined;
}

/** A description with the id of its stored prompts. */
export interface DescribeAnswer {
  id: string;
  description: string;
  prompts: string[];
}

/** What a describe holds once its image is downscaled: the image sent, its data URL and the request carrying it. */
const SENT_BYTES = describeHeldBytes(VISION_MAX_BYTES);
/** Beyond the downloaded image, what a describe holds at most (its downscale, or what it sends). */
export const DESCRIBE_WORK_BYTES = Math.max(DOWNSCALE_WORK_BYTES, SENT_BYTES);

/** The room first taken for an image Discord declares no size for (then grown as its bytes arrive). */
const UNSIZED_GUESS_BYTES = 8 * 1024 * 1024;

/** See the module comment. */
export class DescribeService {
  private readonly options: DescribeServiceOptions;
  private readonly log: Logger;
  private readonly gate: DescribeGate;

  constructor(options: DescribeServiceOptions) {
    this.options = options;
    this.log = options.logger.child({ module: 'describe' });
    this.gate = new DescribeGate({ cooldownMs: options.cooldownMs ?? 0, clock: { now: () => this.now() } });
  }

  /** The largest image a describe downloads: ATTACHMENT_MAX_BYTES, or what its region leaves beside the work. */
  get maxImageBytes(): number {
    const region = this.options.memory?.describeBytes;
    return region === undefined ? this.options.maxAttachmentBytes : Math.max(0, Math.min(this.options.maxAttachmentBytes, region - DESCRIBE_WORK_BYTES));
  }

  /** Describes `image`. @throws UserFacingError (off here, a bad image, or the model failed) */
  async describe(place: DescribePlace, image: AttachmentRef): Promise<DescribeAnswer> {
    const settings = place.guildId === null ? DEFAULT_SETTINGS : ((await this.options.settings?.get(place.guildId)) ?? DEFAULT_SETTINGS);
    checkPromptHelp(settings, place.channelId, place.parentUnknown);
    await this.options.moderation?.check({ guildId: place.guildId, userId: place.userId });
    const max = this.maxImageBytes;
    if (image.size !== undefined && image.size > max) throw new UserFacingError('input.attachmentInvalid', { param: image.filename, detail: largerThan(max) });
    const leave = this.gate.enter(place.userId);
    const id = newJobId();
    const subject: QuotaSubject = { guildId: place.guildId, userId: place.userId, roleIds: place.roleIds ?? [] };
    let described: Description;
    let cost: JobCost | undefined;
    try {
      const taken = await takeDescribePlace(this.options.counts, settings.describeLimit, place, this.now());
      const estimate = await this.reserve(subject, id).catch(async (err: unknown) => {
        await taken.giveBack().catch((e: unknown) => this.log.warn({ err: e }, 'could not give back a describe’s place under the cap'));
        throw err;
      });
      try {
        described = await this.bounded(image, max);
      } catch (err) {
        await Promise.all([
          taken.giveBack().catch((e: unknown) => this.log.warn({ err: e }, 'could not give back a describe’s place under the cap')),
          estimate.held
            ? this.options.spend
                ?.refund(id)
                .catch((e: unknown) => this.log.error({ err: e, describeId: id }, 'spend refund failed; the estimate lapses with its lease'))
            : undefined,
        ]);
        throw err;
      }
      const prices = this.options.pricesOf?.(described.used.model);
      // Unknown prices and no cost reported: no cost to record (no money limit applied, or it would have refused).
      cost = estimate.usd === undefined ? costOf(described.used.usage, prices, 0) : chatCostOf(described.used, prices, estimate.usd);
      if (estimate.held)
        await this.options.spend
          ?.commit(id, cost?.usd ?? 0)
          .catch((err: unknown) => this.log.error({ err, describeId: id }, 'spend commit failed; the estimate lapses with its lease'));
    } finally {
      leave();
    }
    await this.options.records.set(id, { v: 1, prompts: described.prompts }, this.options.ttlMs);
    this.log.info(
      { describeId: id, prompts: described.prompts.length, model: described.used.model, usage: described.used.usage, costUsd: cost?.usd },
      'image described',
    );
    await this.options.usage
      ?.set(
        id,
        { v: 1, describeId: id, guildId: place.guildId, userId: place.userId, promptHelp: { ...described.used, ...(cost && { cost }) }, settledAt: this.now() },
        JOB_USAGE_TTL_MS,
      )
      .catch((err: unknown) => this.log.warn({ err, describeId: id }, 'could not record the description’s usage'));
    if (place.guildId !== null)
      await this.options.totals
        ?.add(place.guildId, isoDate(this.now()), {
          jobId: id,
          userId: place.userId,
          roleIds: subject.roleIds,
          outcome: 'described',
          delivered: 0,
          reachedGateway: true,
          promptHelp: { calls: 1, usd: cost?.usd ?? 0 },
        })
        .catch((err: unknown) => this.log.warn({ err, describeId: id }, 'could not count the description in the usage totals'));
    return { id, description: described.description, prompts: described.prompts };
  }

  /**
   * Holds the describe's estimated cost where a money limit applies to the member (refused when it does not fit,
   * or when the vision model's prices are unknown); answers the estimate and whether it is held.
   */
  private async reserve(subject: QuotaSubject, id: string): Promise<{ usd: number | undefined; held: boolean }> {
    const call = this.options.help.describeCall?.(VISION_MAX_SIDE);
    const estimate = call && estimateChatCost(call, this.options.pricesOf?.(call.model));
    const spend = this.options.spend;
    if (!spend) return { usd: estimate, held: false };
    if (estimate === undefined) {
      if (await spend.status(subject)) throw new UserFacingError('spend.unpriced', { model: call?.model });
      return { usd: undefined, held: false };
    }
    const held = await spend.reserve(subject, id, estimate);
    if (!held.ok) {
      if (held.status.usd === 0) throw new UserFacingError('quota.blocked');
      throw new UserFacingError('spend.exceeded', {
        estimateUsd: estimate,
        limitUsd: held.status.usd,
        remainingUsd: held.status.remaining,
        resetsAt: held.status.resetsAt,
      });
    }
    return { usd: estimate, held: held.held };
  }

  /** One describe within its time limit and its room in the budget, given back however it ends. */
  private async bounded(image: AttachmentRef, max: number): Promise<Description> {
    const limitMs = this.options.timeLimitMs ?? 120_000;
    const signal = AbortSignal.timeout(limitMs);
    // An image of no declared size (an embed's, a gallery's) starts from a guess; its download takes more if need be.
    const hold = await this.takeMemory(Math.min(image.size ?? UNSIZED_GUESS_BYTES, max), signal);
    try {
      return await this.read(image, max, hold, signal, Math.max(1, Math.ceil(limitMs / 1000)));
    } catch (err) {
      if (signal.aborted && !(err instanceof UserFacingError)) throw new UserFacingError('promptHelp.failed', {}, { cause: err });
      throw err;
    } finally {
      hold?.release();
    }
  }

  /**
   * Downloads `image` (at most `max` bytes, each admitted to the hold before it is held), downscales it and asks the
   * vision model about it; the download itself is let go once downscaled, and the hold shrinks to match.
   */
  private async read(image: AttachmentRef, max: number, hold: DescribeHold | undefined, signal: AbortSignal, timeoutSeconds: number): Promise<Description> {
    const admit = (bytes: number) => {
      if (hold && !hold.growTo(DESCRIBE_WORK_BYTES + bytes)) throw new UserFacingError('describe.busy');
    };
    const sent = await this.downscaled(image, await this.options.download(image, max, signal, admit), timeoutSeconds);
    hold?.shrinkTo(describeHeldBytes(sent.bytes.length));
    signal.throwIfAborted();
    return this.options.help.describe(`data:image/${sent.format};base64,${sent.bytes.toString('base64')}`, signal);
  }

  /** The downloaded image, checked and made small (vision-image.ts); the download is not referenced past this. */
  private async downscaled(image: AttachmentRef, bytes: Buffer, timeoutSeconds: number) {
    const format = sniffImageFormat(bytes);
    if (format === undefined || !READABLE.has(format))
      throw new UserFacingError('input.attachmentInvalid', { param: image.filename, detail: phrase('detail.image.notDescribable') });
    // Its header, before anything decodes it: more than MAX_DECODE_PIXELS is refused.
    await checkedHeader(bytes, this.options.maxDecodePixels ?? DEFAULT_MAX_DECODE_PIXELS, image.filename);
    return visionImage(bytes, format as 'png' | 'jpeg' | 'webp' | 'gif', image.filename, timeoutSeconds);
  }

  /**
   * Room in the describes' region for an image of `bytes` (as declared: a hint, the download takes more if it brings
   * more) and its work, waited for within the time limit (past it: describe.busy).
   */
  private async takeMemory(bytes: number, signal: AbortSignal): Promise<DescribeHold | undefined> {
    const memory = this.options.memory;
    if (!memory) return undefined;
    try {
      return await memory.takeDescribe(Math.min(DESCRIBE_WORK_BYTES + bytes, memory.describeBytes), signal);
    } catch (err) {
      if (signal.aborted) throw new UserFacingError('describe.busy', {}, { cause: err });
      throw err;
    }
  }

  private now(): number {
    return this.options.clock?.now() ?? Date.now();
  }

  /** The `index`-th prompt of a stored description, or undefined once it has expired. */
  async prompt(id: string, index: number): Promise<string | undefined> {
    return (await this.options.records.get(id))?.prompts[index];
  }
}
