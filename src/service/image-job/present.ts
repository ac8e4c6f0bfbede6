/**
 * Posts one image of an earlier result as a card of its own with the actions on it (U1…): no gateway call and
 * nothing charged. It is downloaded like a reference (host allow-list, declared size, the memory budget), and goes
 * through the member's line like every other action, so their running and queued limits hold for U1 too.
 */
import { UserFacingError } from '../../errors.js';
import { checkedHeader } from '../decode-guard.js';
import { toUserFacingError } from '../error-mapping.js';
import { declaredBytes, sniffImageFormat } from '../../core/image-rules.js';
import type { JobArchive } from '../job-archive.js';
import type { AttachmentRef, ImageJob } from '../../core/jobs.js';
import type { Responder } from '../../ports/responder.js';
import { actionsOf } from '../../core/result-actions.js';
import { defaultModel, type JobDeps } from './deps.js';
import { queueRefusal } from './generate.js';
import { settingsOf } from './preflight.js';
import { perksOf } from '../../core/member-perks.js';

/** What presenting takes: the steps' dependencies, and the archive that keeps the card's buttons. */
export type PresentDeps = Pick<JobDeps, 'gateway' | 'log' | 'rules' | 'produce'> & { archive: Pick<JobArchive, 'remember'> | undefined };

/** Presents `ref` as its own card, in the member's line (and lane); see the module comment. */
export async function presentImage(deps: PresentDeps, job: ImageJob, ref: AttachmentRef, responder: Responder): Promise<void> {
  const { lane } = perksOf((await settingsOf(deps, job)).priority, job.subject);
  const ticket = deps.produce.queue.submit(job.subject.userId, () => presentNow(deps, job, ref, responder), {}, lane);
  if (!ticket.accepted) throw queueRefusal(ticket.reason, deps.produce.perMemberQueued);
  await ticket.result;
}

async function presentNow(deps: PresentDeps, job: ImageJob, ref: AttachmentRef, responder: Responder): Promise<void> {
  const log = deps.log.child({ jobId: job.id, kind: 'present' });
  const { memory: budget, maxAttachmentBytes, maxDecodePixels, download } = deps.produce;
  const memory = budget.forJob(0);
  try {
    await memory.takeReferences(declaredBytes([ref], undefined, maxAttachmentBytes));
    const bytes = await download(ref, ref.size ?? maxAttachmentBytes);
    const format = sniffImageFormat(bytes);
    const meta = format ? await checkedHeader(bytes, maxDecodePixels, ref.filename) : undefined;
    if (!format || !meta) throw new UserFacingError('input.attachmentInvalid', { param: ref.filename });
    const model = job.request.model ?? defaultModel(deps.gateway);
    const { profile } = deps.rules.profiles.of(model);
    const files = [{ bytes, format, width: meta.width, height: meta.height }];
    const { messageIds } = await responder.deliver({ job, model, files, notices: [], actions: actionsOf(profile, files[0], job.request.quality) });
    await deps.archive?.remember(job, messageIds).catch((err: unknown) => log.warn({ err }, 'could not store job for its buttons'));
    log.info('image presented as its own card');
  } catch (err) {
    throw toUserFacingError(err, () => deps.gateway.cachedModels().map((m) => m.id));
  } finally {
    memory.release();
  }
}
