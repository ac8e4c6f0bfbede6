/**
 * The image job runner: one member's job from acceptance to delivery, as six steps that each take the value the one
 * before returned: preflight (checks needing nothing fetched) → confirm (an expensive request is put to its member)
 * → hold (journal, quota, spend, lease) → produce (enhance, queue fairly, download references, call the gateway,
 * fit files) → deliver (post) → settle (commit or refund the holds, then tell the bookkeeping). Any failure after the
 * hold refunds it, exactly once; a failing step throws a JobFailure carrying what the job had come to.
 */
import type { Logger } from 'pino';
import { UserFacingError } from '../../errors.js';
import { roundUsd } from '../../core/cost.js';
import type { ImageJob } from '../../core/jobs.js';
import type { Responder } from '../../ports/responder.js';
import type { ServerSettings } from '../../core/server-settings.js';
import { askedToConfirm } from './confirm.js';
import { deliver } from './deliver.js';
import { JobHolds } from './holds.js';
import { JobFailure, step, type Prepared } from './job-values.js';
import { preflight, settingsOf } from './preflight.js';
import { withPerks } from '../server-settings.js';
import { produce } from './produce.js';
import { settleDelivered, settleFailure, type DeliveredJob, type RunnerDeps } from './settle.js';

/**
 * Runs a job to the end. Member-facing failures are thrown as {@link UserFacingError} after the holds were
 * refunded; the caller (the router's error boundary) answers them.
 */
export async function runImageJob(deps: RunnerDeps, job: ImageJob, responder: Responder): Promise<void> {
  const log = deps.log.child({ jobId: job.id, kind: job.kind });
  try {
    const done = await runSteps(deps, job, responder, log);
    if (done) await settleDelivered(deps, job, done, log);
  } catch (err) {
    throw await settleFailure(deps, job, JobFailure.of(err, {}), log);
  }
}

/** The steps up to delivery; undefined when the member was asked to confirm the cost first (nothing is held then). */
async function runSteps(deps: RunnerDeps, asked: ImageJob, responder: Responder, log: Logger): Promise<DeliveredJob | undefined> {
  const settings = await settingsOf(deps, asked);
  // The member's perks (their queue lane, their limits' multipliers) go with the job from here on.
  const job = { ...asked, subject: withPerks(asked.subject, settings) };
  const prepared = await step({ settings }, () => preflight(deps, job, settings));
  const checked = { settings, prepared };
  if (await step(checked, () => askedToConfirm(deps, job, checked, responder, log))) return undefined;
  deps.claims?.watch(job.id);
  const holds = await step(checked, () => JobHolds.reserve(deps.holds, job, prepared, responder.replyAddress, log));
  return step(checked, () => runHeld(deps, job, checked, holds, responder, log));
}

/** Produces and delivers under the holds, then commits them; a failure refunds them (and charges the enhance call that ran). */
async function runHeld(
  deps: RunnerDeps,
  job: ImageJob,
  { settings, prepared }: { settings: ServerSettings; prepared: Prepared },
  holds: JobHolds,
  responder: Responder,
  log: Logger,
): Promise<DeliveredJob> {
  try {
    const produced = await produce(deps, job, prepared, responder, log);
    const delivered = await step({ ran: produced.ran, answer: produced.answer }, () => deliver(deps, produced, responder));
    const { answer, ran } = produced;
    // The actual cost where the gateway told it, else the estimate; and the enhance call's.
    await holds.commit(delivered.images, roundUsd((answer.cost?.usd ?? prepared.imageEstimate ?? 0) + (ran.promptHelp?.cost?.usd ?? 0)));
    deps.claims?.forget(job.id);
    return { prepared, settings, produced, delivered };
  } catch (err) {
    const failure = JobFailure.of(err, {});
    const charge = failure.soFar.ran?.promptHelp?.cost?.usd ?? 0;
    // "You were not charged" holds for the images; the enhance call that ran is charged, and the member is told.
    if (holds.spendHeld && charge > 0 && failure.cause instanceof UserFacingError) failure.cause.context.promptHelpUsd ??= charge;
    await holds.refund(charge);
    throw failure;
  }
}
