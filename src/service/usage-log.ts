/**
 * What every settled job that reached the gateway cost, kept for reports: who asked (server, member), what
 * (command, model, size, quality, count), what was delivered, the usage the gateway reported (normalised by the
 * gateway adapter) and its request id. One record per job, kept for a year and a month so a yearly report can be
 * made; the reports themselves read them (a later issue).
 */
import { z } from 'zod';
import { IMAGE_QUALITIES } from '../core/image-request.js';
import type { ImageJob } from '../core/jobs.js';
import type { ImageResult } from '../core/images.js';
import type { RecordStore } from '../ports/record-store.js';
import type { JobCost } from '../core/cost.js';
import type { PromptHelpUsage } from './prompt-help.js';
import type { DraftUse } from '../core/drafts.js';
import { sizeText } from '../core/sizes.js';

const Count = z.number().nonnegative().optional();

/** A chat call of prompt help (enhance, describe): its model, request id and the tokens it used (no image quota). */
const ChatUsage = z.object({
  model: z.string(),
  requestId: z.string().optional(),
  usage: z.object({ inputTokens: Count, outputTokens: Count, totalTokens: Count, costUsd: Count }).optional(),
  /** What it cost: reported, or estimated from its usage and the chat model's prices (chat-cost.ts); issue 29. */
  cost: z.object({ usd: z.number().nonnegative(), source: z.enum(['reported', 'estimated']) }).optional(),
});

/** A settled job's usage, as stored. A change to a field needs a new `v`. */
export const JobUsage = z.object({
  v: z.literal(1),
  jobId: z.string(),
  guildId: z.string().nullable(),
  userId: z.string(),
  kind: z.enum(['imagine', 'edit']),
  model: z.string(),
  size: z.string().optional(),
  quality: z.enum(IMAGE_QUALITIES).optional(),
  requested: z.number().int().positive(),
  delivered: z.number().int().nonnegative(),
  usage: z
    .object({
      inputTokens: Count,
      outputTokens: Count,
      totalTokens: Count,
      inputTextTokens: Count,
      inputImageTokens: Count,
      outputImageTokens: Count,
      outputTextTokens: Count,
      costUsd: Count,
    })
    .optional(),
  requestId: z.string().optional(),
  /** What it cost: reported by the gateway, or estimated from the usage and the model's prices (cost.ts). */
  cost: z.object({ usd: z.number().nonnegative(), source: z.enum(['reported', 'estimated']) }).optional(),
  /** The chat call of prompt help (enhance) the job made first: its model and the tokens it used (no image quota). */
  promptHelp: ChatUsage.optional(),
  /** A draft, with its estimate at high quality for the images asked, or an HD re-render of one (core/drafts.ts); issue 32. */
  drafting: z
    .discriminatedUnion('kind', [z.object({ kind: z.literal('draft'), highEstimateUsd: z.number().nonnegative() }), z.object({ kind: z.literal('hd') })])
    .optional(),
  /** Epoch ms. */
  settledAt: z.number(),
});
export type JobUsage = z.infer<typeof JobUsage>;

/** A description's (prompt help's describe) chat call, as stored under its id: who asked, and what it used. */
export const DescribeUsage = z.object({
  v: z.literal(1),
  describeId: z.string(),
  guildId: z.string().nullable(),
  userId: z.string(),
  promptHelp: ChatUsage,
  /** Epoch ms. */
  settledAt: z.number(),
});
export type DescribeUsage = z.infer<typeof DescribeUsage>;

/** How long a job's usage is kept: a year and a month. */
export const JOB_USAGE_TTL_MS = 395 * 86_400_000;

/** Records what settled jobs cost. */
export class UsageLog {
  private readonly records: RecordStore<JobUsage>;

  constructor(records: RecordStore<JobUsage>) {
    this.records = records;
  }

  /** Records `job`, answered with `result`, of which `delivered` images were posted; `drafting`: a draft or an HD re-render. */
  async record(
    job: ImageJob,
    result: Pick<ImageResult, 'model' | 'sizeFallback' | 'usage' | 'requestId'>,
    delivered: number,
    settledAt: number,
    cost?: JobCost,
    promptHelp?: PromptHelpUsage & { cost?: JobCost | undefined },
    drafting?: DraftUse,
  ): Promise<void> {
    const size = result.sizeFallback?.used ?? job.request.size;
    const entry: JobUsage = {
      v: 1,
      jobId: job.id,
      guildId: job.origin.guildId,
      userId: job.subject.userId,
      kind: job.kind,
      model: result.model,
      size: size && sizeText(size),
      quality: job.request.quality,
      requested: job.request.n ?? 1,
      delivered,
      usage: result.usage,
      requestId: result.requestId,
      cost,
      promptHelp: promptHelp && {
        model: promptHelp.model,
        requestId: promptHelp.requestId,
        usage: promptHelp.usage && {
          inputTokens: promptHelp.usage.inputTokens,
          outputTokens: promptHelp.usage.outputTokens,
          totalTokens: promptHelp.usage.totalTokens,
          costUsd: promptHelp.usage.costUsd,
        },
        cost: promptHelp.cost,
      },
      drafting: drafting && (drafting.kind === 'hd' ? { kind: 'hd' } : { kind: 'draft', highEstimateUsd: drafting.highEstimateUsd }),
      settledAt,
    };
    await this.records.set(job.id, entry, JOB_USAGE_TTL_MS);
  }

  /** The recorded usage of a job, if any. */
  get(jobId: string): Promise<JobUsage | undefined> {
    return this.records.get(jobId);
  }
}
