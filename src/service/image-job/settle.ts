/**
 * Step 6, settle: once the holds are committed or refunded, the job's end becomes one {@link JobSettled} value,
 * emitted to the bookkeeping's listeners; a failure is then mapped to what the member reads.
 */
import type { Logger } from 'pino';
import { UserFacingError } from '../../errors.js';
import { JobClaimedError } from '../claimed-jobs.js';
import { toUserFacingError } from '../error-mapping.js';
import { jobOutcomeOf } from '../job-outcome.js';
import type { ImageJob } from '../../core/jobs.js';
import { defaultModel, type JobDeps } from './deps.js';
import type { Delivered } from './deliver.js';
import type { JobFailure, Prepared } from './job-values.js';
import type { Produced } from './produce.js';
import type { JobSettled, SettledJobs } from './settled-event.js';

/** The runner's dependencies: the steps' and the listeners of settled jobs. */
export interface RunnerDeps extends JobDeps {
  settled: SettledJobs;
}

/** A delivered job: what it made and where it went, and the request it was prepared with. */
export interface DeliveredJob {
  prepared: Prepared;
  settings: JobSettled['settings'];
  produced: Produced;
  delivered: Delivered;
}

/** Tells the listeners of a delivered job, then the log. */
export async function settleDelivered(deps: RunnerDeps, job: ImageJob, done: DeliveredJob, log: Logger): Promise<void> {
  const { prepared, settings, produced, delivered } = done;
  const { ran, answer } = produced;
  await deps.settled.emit(
    {
      job,
      outcome: 'delivered',
      settings,
      request: prepared.request,
      model: answer.model,
      delivered: delivered.images,
      cost: answer.cost,
      posted: delivered.posted,
      ran: { job: ran.job, request: ran.prepared.request },
      answer,
      promptHelp: ran.promptHelp,
      drafting: prepared.drafting,
      reachedGateway: true,
      settledAt: deps.clock.now(),
    },
    log,
  );
  log.info({ images: delivered.files, requestId: answer.requestId, usage: answer.usage }, 'image job delivered');
}

/**
 * Tells the listeners of a job that failed (refused, failed or cancelled; its holds already refunded) and returns
 * what to throw: the member-facing error, or JobClaimedError for a job another process claimed (refunded and its
 * member told there; nothing more is said here).
 */
export async function settleFailure(deps: RunnerDeps, job: ImageJob, failure: JobFailure, log: Logger): Promise<unknown> {
  const { cause, soFar } = failure;
  const { settings, prepared, ran, answer } = soFar;
  const mapped = toUserFacingError(cause, () => deps.gateway.cachedModels().map((m) => m.id));
  const request = prepared?.request ?? job.request;
  await deps.settled.emit(
    {
      job,
      outcome: jobOutcomeOf(mapped),
      reason: mapped instanceof UserFacingError ? mapped.identifier : undefined,
      settings,
      request,
      model: prepared?.model ?? request.model ?? defaultModel(deps.gateway),
      delivered: 0,
      ran: ran && { job: ran.job, request: ran.prepared.request },
      answer,
      promptHelp: ran?.promptHelp,
      // Images made but not posted, or an enhance call that answered: each leaves a usage record.
      reachedGateway: answer !== undefined || ran?.promptHelp !== undefined,
      settledAt: deps.clock.now(),
    },
    log,
  );
  // The member only hears "not available right now"; the operator must fix the key or the balance.
  if (mapped instanceof UserFacingError && mapped.identifier === 'gateway.unavailable')
    log.error({ err: cause }, 'gateway account problem: check the API key and balance');
  const claimed = deps.claims?.claimed(job.id) === true;
  deps.claims?.forget(job.id);
  if (!claimed) return mapped;
  log.warn('job stopped: another process claimed it');
  return new JobClaimedError(job.id);
}
