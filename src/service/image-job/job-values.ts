/**
 * The values an image job's steps hand one another (preflight → confirm → hold → produce → deliver → settle), and the
 * failure a step throws: it carries what the job had come to, so the settle step can tell what was made and held
 * without any step writing into another's variables.
 */
import type { JobCost } from '../../core/cost.js';
import type { EnhancementOutcome } from '../enhance-step.js';
import type { ImageJob } from '../../core/jobs.js';
import type { ModelProfile } from '../../core/model-profiles.js';
import type { GenerateRequest, ImageResult } from '../../core/images.js';
import type { PromptHelpUsage } from '../prompt-help.js';
import type { ServerSettings } from '../../core/server-settings.js';
import type { DraftUse } from '../../core/drafts.js';

/** A checked request, with the model it goes to and that model's profile (preflight). */
export interface Prepared {
  request: GenerateRequest;
  model: string;
  profile: ModelProfile;
  /** The server lets previews (streamed partial images) be asked for. */
  previews: boolean;
  /** The server posts results in this channel as spoilers. */
  spoiler: boolean;
  /**
   * The estimated cost in USD: the images (cost-estimate.ts) and the enhance call asked for (chat-cost.ts); undefined
   * when the prices of either model are not known (`unpricedModel`).
   */
  estimate: number | undefined;
  /** The images' part of `estimate` (what a delivery without a reported cost is charged). */
  imageEstimate: number | undefined;
  /** The enhance call's estimate (0 when none is asked for), charged when its answer tells no cost. */
  enhanceEstimate: number;
  /** The model whose prices are missing when `estimate` is undefined. */
  unpricedModel: string;
  /** An edit's references and fields, with what an action on a result asks for (its fidelity) filled in. */
  edit: ImageJob['edit'];
  /** The server allows prompt help (enhance). */
  promptHelp: boolean;
  /** A draft (the server's draft default made it cheaper) or an HD re-render of one, for the drafting figures. */
  drafting?: DraftUse | undefined;
}

/** The job as it runs once held: the enhanced prompt (if any) in both, and what to show and record of the enhance step. */
export interface Ran {
  job: ImageJob;
  prepared: Prepared;
  enhancement: EnhancementOutcome;
  /** The enhance call that answered, with what it cost; it is charged whatever becomes of the job. */
  promptHelp?: (PromptHelpUsage & { cost?: JobCost | undefined }) | undefined;
}

/** What the job's bookkeeping needs of the gateway's answer: all but the images' bytes (their count instead), and its cost. */
export type Answer = Omit<ImageResult, 'images'> & { images: number; cost: JobCost | undefined };

/** What a job had come to when it ended; each step adds to it. */
export interface JobSoFar {
  settings?: ServerSettings | undefined;
  prepared?: Prepared | undefined;
  ran?: Ran | undefined;
  /** The gateway's answer, once there is one (made, and paid for by the operator, even when not posted). */
  answer?: Answer | undefined;
}

/** A step's failure with what the job had come to; the runner throws its `cause` on, mapped for the member. */
export class JobFailure extends Error {
  override name = 'JobFailure';
  readonly soFar: JobSoFar;

  private constructor(cause: unknown, soFar: JobSoFar) {
    super('image job step failed', { cause });
    this.soFar = soFar;
  }

  /** `err` with `soFar`; a failure thrown deeper knows more, so its own findings win. */
  static of(err: unknown, soFar: JobSoFar): JobFailure {
    return err instanceof JobFailure ? new JobFailure(err.cause, { ...soFar, ...err.soFar }) : new JobFailure(err, soFar);
  }
}

/** Runs a step; its failure carries `soFar`. */
export async function step<T>(soFar: JobSoFar, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw JobFailure.of(err, soFar);
  }
}

/** The answer without its images' bytes, with what it cost (`prices` from the model's profile). */
export function answerOf(result: ImageResult, cost: JobCost | undefined): Answer {
  const { images, ...rest } = result;
  return { ...rest, images: images.length, cost };
}
