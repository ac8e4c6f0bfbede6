/**
 * Step 2, confirm: a request whose estimate is above the server's threshold is put to its member (once: a confirmed
 * job is not asked again) instead of run; the job then ends here, holding nothing. A request that would not fit the
 * member's quota or money limit anyway is refused now instead of asked about.
 */
import type { Logger } from 'pino';
import type { ImageJob } from '../../core/jobs.js';
import type { Responder } from '../../ports/responder.js';
import type { ServerSettings } from '../../core/server-settings.js';
import type { JobDeps } from './deps.js';
import { quotaError, spendError } from './holds.js';
import type { Prepared } from './job-values.js';

/** True when the member was asked to confirm the job's cost (it ends here), false when it runs now. */
export async function askedToConfirm(
  deps: Pick<JobDeps, 'rules' | 'holds'>,
  job: ImageJob,
  { settings, prepared }: { settings: ServerSettings; prepared: Prepared },
  responder: Responder,
  log: Logger,
): Promise<boolean> {
  const threshold = settings.confirmAboveUsd;
  const { estimate } = prepared;
  if (job.confirmed === true || threshold === undefined || estimate === undefined || estimate <= threshold || !responder.confirmCost) return false;
  const count = prepared.request.n ?? 1;
  const [quota, spend] = await Promise.all([deps.holds.quotas.status(job.subject), deps.holds.spend?.status(job.subject)]);
  if (quota.remaining < count) throw quotaError(quota, count);
  if (spend && spend.remaining < estimate) throw spendError(spend, estimate);
  const id = await deps.rules.confirmations?.stashConfirmation(job);
  if (id === undefined) return false;
  await responder.confirmCost({ id, job, estimateUsd: estimate, thresholdUsd: threshold });
  log.info({ estimateUsd: estimate, thresholdUsd: threshold }, 'cost confirmation asked');
  return true;
}
