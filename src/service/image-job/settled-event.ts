/**
 * The settled-job event: once a job has ended (delivered, refused, failed or cancelled) and its holds are committed
 * or refunded, the runner emits one {@link JobSettled}; the bookkeeping (archive, history, usage log, usage totals,
 * audit, metrics) listens to it (listeners/). A listener's failure is logged and never changes the member's outcome.
 */
import type { Logger } from 'pino';
import type { JobCost } from '../../core/cost.js';
import type { JobOutcome } from '../../core/job-outcome.js';
import type { ImageJob, Posted } from '../../core/jobs.js';
import type { GenerateRequest } from '../../core/images.js';
import type { PromptHelpUsage } from '../prompt-help.js';
import type { ServerSettings } from '../../core/server-settings.js';
import type { Answer } from './job-values.js';
import type { DraftUse } from '../../core/drafts.js';

/** One settled job, as the bookkeeping reads it. */
export interface JobSettled {
  /** The job as the member asked it. */
  job: ImageJob;
  outcome: JobOutcome;
  /** The member-facing error's identifier when it did not deliver (`quota.exceeded`). */
  reason?: string | undefined;
  /** The server's settings, when they were read (its audit channel). */
  settings?: ServerSettings | undefined;
  /** The request as checked (the server's defaults filled in), or as asked when it was refused before. */
  request: GenerateRequest;
  /** The model that answered, else the one asked for, else the gateway's default. */
  model: string;
  /** Images delivered (an SVG original does not count); 0 unless delivered. */
  delivered: number;
  /** What the delivered images cost; undefined unless delivered. */
  cost?: JobCost | undefined;
  /** Where the images were posted, when delivered. */
  posted?: Posted | undefined;
  /** The job as it ran once held (the enhanced prompt) and its request as sent; absent when it ended before. */
  ran?: { job: ImageJob; request: GenerateRequest } | undefined;
  /** The gateway's answer, when there was one (posted or not). */
  answer?: Answer | undefined;
  /** The enhance call that answered, and what it cost. */
  promptHelp?: (PromptHelpUsage & { cost?: JobCost | undefined }) | undefined;
  /** A draft or an HD re-render of one (drafts.ts), for the drafting figures; absent: neither, or not prepared. */
  drafting?: DraftUse | undefined;
  /** It reached the gateway: images were made, or an enhance call answered (it has a usage record). */
  reachedGateway: boolean;
  /** When it settled (ms since epoch). */
  settledAt: number;
}

/** One piece of bookkeeping; it may reject: the emitter logs `failure` and goes on. */
export interface SettledListener {
  /** What the log says when it fails (`could not record the job usage`). */
  failure: string;
  onSettled: (event: JobSettled, log: Logger) => Promise<void>;
}

/** The listeners of settled jobs, told in the order they subscribed, one after another. */
export class SettledJobs {
  private readonly listeners: SettledListener[] = [];

  subscribe(listener: SettledListener): void {
    this.listeners.push(listener);
  }

  /** Tells every listener; resolves once all have finished, and never rejects. */
  async emit(event: JobSettled, log: Logger): Promise<void> {
    for (const listener of this.listeners) {
      try {
        await listener.onSettled(event, log);
      } catch (err) {
        log.warn({ err }, listener.failure);
      }
    }
  }
}
