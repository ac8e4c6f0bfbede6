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
 * Bounded (issue 28): one describe per member at a time and a cooldown between them (describe-gate.ts); the image's
 * room, download, downscale and vision call within a time limit and the describes' own region of the memory budget,
 * never the references' an edit waits for (describe-image.ts).
 */
import type { Logger } from 'pino';
import { z } from 'zod';
import { UserFacingError } from '../errors.js';
import { Prompt } from '../core/image-request.js';
import { largerThan } from '../core/phrase.js';
import { newJobId } from './job-id.js';
import { type AttachmentRef } from '../core/jobs.js';
import type { MemoryBudget } from './memory-budget.js';
import { DESCRIBE_WORK_BYTES, describeWithin } from './describe-image.js';
import { DescribeGate } from './describe-gate.js';
import type { ModerationGate } from './moderation-gate.js';
import type { Clock } from '../ports/clock.js';
import type { DescribeCounts } from '../ports/describe-counts.js';
import type { QuotaSubject } from '../core/quota.js';
import type { RecordStore } from '../ports/record-store.js';
import type { SpendLedger } from '../ports/spend-ledger.js';
import { chatCostOf, estimateChatCost } from './chat-cost.js';
import { costOf, type JobCost, type ModelPrices } from '../core/cost.js';
import { takeDescribePlace } from './describe-cap.js';
import { isoDate } from '../core/periods.js';
import type { UsageTotals } from '../ports/usage-totals.js';
import { VISION_MAX_SIDE } from './vision-image.js';
import type { Description, PromptHelp } from './prompt-help.js';
import { checkPromptHelp, withPerks } from './server-settings.js';
import { DEFAULT_SETTINGS, type ServerSettings } from '../core/server-settings.js';
import type { SettingsStore } from './settings-store.js';
import { JOB_USAGE_TTL_MS, type DescribeUsage } from './usage-log.js';

/** A describe answer's prompts, as stored for its buttons. */
export const DescribedPrompts = z.object({ v: z.literal(1), prompts: z.array(Prompt).min(1).max(4) });
export type DescribedPrompts = z.infer<typeof DescribedPrompts>;

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

/** Where describe is asked (the server, null outside servers; the channel, or a thread's parent) and by whom. */
export interface DescribePlace {
  guildId: string | null;
  /** The channel, or for a thread its parent. */
  channelId: string | null;
  userId: string;
  /** The member's role ids on the server (money limits set for a role apply). */
  roleIds?: readonly string[] | undefined;
  /** The member boosts the server (its booster perks multiply their money limit). */
  booster?: boolean | undefined;
  /** A thread whose parent is not known: the channel rules fail closed. */
  parentUnknown?: boolean | undefined;
}

/** A description with the id of its stored prompts. */
export interface DescribeAnswer {
  id: string;
  description: string;
  prompts: string[];
}

/** What a describe holds while it runs: its place under the cap and its estimated cost. */
interface Holding {
  place: DescribePlace;
  subject: QuotaSubject;
  id: string;
  limit: ServerSettings['describeLimit'];
}

/** A description and what it cost. */
interface Settled {
  described: Description;
  cost: JobCost | undefined;
}

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
    const subject = withPerks({ guildId: place.guildId, userId: place.userId, roleIds: place.roleIds ?? [], booster: place.booster }, settings);
    let settled: Settled;
    try {
      settled = await this.describeHeld({ place, subject, id, limit: settings.describeLimit }, image, max);
    } finally {
      leave();
    }
    await this.record(place, subject, id, settled);
    const { described } = settled;
    return { id, description: described.description, prompts: described.prompts };
  }

  /**
   * Takes the describe's place under the server's cap and holds its estimated cost, then describes; what was taken is
   * given back when the description fails, and the cost is committed once it is known.
   */
  private async describeHeld(held: Holding, image: AttachmentRef, max: number): Promise<Settled> {
    const { place, subject, id } = held;
    const taken = await takeDescribePlace(this.options.counts, held.limit, place, this.now());
    const estimate = await this.reserve(subject, id).catch(async (err: unknown) => {
      await this.giveBack(taken);
      throw err;
    });
    let described: Description;
    try {
      described = await describeWithin(this.options, image, max);
    } catch (err) {
      await Promise.all([this.giveBack(taken), estimate.held ? this.refundSpend(id) : undefined]);
      throw err;
    }
    const prices = this.options.pricesOf?.(described.used.model);
    // Unknown prices and no cost reported: no cost to record (no money limit applied, or it would have refused).
    const cost = estimate.usd === undefined ? costOf(described.used.usage, prices, 0) : chatCostOf(described.used, prices, estimate.usd);
    if (estimate.held)
      await this.options.spend
        ?.commit(id, cost?.usd ?? 0)
        .catch((err: unknown) => this.log.error({ err, describeId: id }, 'spend commit failed; the estimate lapses with its lease'));
    return { described, cost };
  }

  private giveBack(taken: { giveBack: () => Promise<void> }): Promise<void> {
    return taken.giveBack().catch((e: unknown) => this.log.warn({ err: e }, 'could not give back a describe’s place under the cap'));
  }

  private async refundSpend(id: string): Promise<void> {
    await this.options.spend
      ?.refund(id)
      .catch((e: unknown) => this.log.error({ err: e, describeId: id }, 'spend refund failed; the estimate lapses with its lease'));
  }

  /** Keeps the description for its buttons, and counts it in the usage log and the server's totals. */
  private async record(place: DescribePlace, subject: QuotaSubject, id: string, { described, cost }: Settled): Promise<void> {
    await this.options.records.set(id, { v: 1, prompts: described.prompts }, this.options.ttlMs);
    this.log.info(
      { describeId: id, prompts: described.prompts.length, model: described.used.model, usage: described.used.usage, costUsd: cost?.usd },
      'image described',
    );
    const promptHelp = { ...described.used, ...(cost && { cost }) };
    await this.options.usage
      ?.set(id, { v: 1, describeId: id, guildId: place.guildId, userId: place.userId, promptHelp, settledAt: this.now() }, JOB_USAGE_TTL_MS)
      .catch((err: unknown) => this.log.warn({ err, describeId: id }, 'could not record the description’s usage'));
    if (place.guildId === null) return;
    const entry = { jobId: id, userId: place.userId, roleIds: subject.roleIds, outcome: 'described' as const, delivered: 0, reachedGateway: true };
    await this.options.totals
      ?.add(place.guildId, isoDate(this.now()), { ...entry, promptHelp: { calls: 1, usd: cost?.usd ?? 0 } })
      .catch((err: unknown) => this.log.warn({ err, describeId: id }, 'could not count the description in the usage totals'));
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

  private now(): number {
    return this.options.clock?.now() ?? Date.now();
  }

  /** The `index`-th prompt of a stored description, or undefined once it has expired. */
  async prompt(id: string, index: number): Promise<string | undefined> {
    return (await this.options.records.get(id))?.prompts[index];
  }
}
