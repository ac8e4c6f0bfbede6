/**
 * What the service tells the operator's metrics (src/ops/metrics.ts, wired in main.ts): how each job ended, how long
 * it waited in the queue and how many bytes it posted. A port with a no-op default, so the service and its tests need
 * no metrics library.
 */
import { UserFacingError } from '../errors.js';

/** How a job ended: posted, refused (the request, the quota, the queue or the model said no), failed, or cancelled. */
export type JobOutcome = 'delivered' | 'refused' | 'failed' | 'cancelled';

/** The service's observations. */
export interface JobMetrics {
  /** A job settled (once per ImageService.run). */
  jobSettled(outcome: JobOutcome): void;
  /** A job's turn came after `seconds` in the fair queue. */
  queueWaited(seconds: number): void;
  /** Files of `bytes` in all were posted to Discord. */
  uploaded(bytes: number): void;
}

/** Observes nothing: the default. */
export const NO_JOB_METRICS: JobMetrics = {
  jobSettled: () => undefined,
  queueWaited: () => undefined,
  uploaded: () => undefined,
};

const REFUSED = new Set<string>([
  'input.invalid',
  'input.attachmentInvalid',
  'input.noImages',
  'input.moderationNotAllowed',
  'quota.exceeded',
  'quota.blocked',
  'spend.exceeded',
  'spend.unpriced',
  'moderation.paused',
  'moderation.pausedNow',
  'queue.full',
  'gateway.contentRejected',
  'gateway.unknownModel',
  'gateway.badParameter',
  'gateway.transparencyRefused',
  'settings.modelNotAllowed',
  'settings.tooMany',
  'settings.channelOnly',
  'settings.channelExcept',
  'settings.threadUnknown',
  'settings.moderationOff',
  'settings.moderationRoles',
]);
const CANCELLED = new Set<string>(['job.cancelled', 'job.unacknowledged']);

/** The outcome of a job that ended with `err` (as the member hears it, after error mapping). */
export function jobOutcomeOf(err: unknown): JobOutcome {
  if (!(err instanceof UserFacingError)) return 'failed';
  if (REFUSED.has(err.identifier)) return 'refused';
  return CANCELLED.has(err.identifier) ? 'cancelled' : 'failed';
}
