/** How a job ended, from the error it ended with (as the member hears it, after error mapping): for the metrics and the audit. */
import type { JobOutcome } from '../core/job-outcome.js';
import { UserFacingError } from '../errors.js';

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
