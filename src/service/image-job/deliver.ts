/**
 * Step 5, deliver: the produced files are posted to the member (completing the upload that began while the answer
 * arrived, if any), then the answer's Buffers and memory are given back: the only place they are held, so they go as
 * soon as they are posted (or could not be), not after the job's bookkeeping.
 */
import { imagesIn } from '../delivery-files.js';
import type { Posted } from '../../core/jobs.js';
import type { Responder } from '../../ports/responder.js';
import { actionsOf } from '../../core/result-actions.js';
import { isDraft } from '../../core/drafts.js';
import type { JobDeps } from './deps.js';
import type { Produced } from './produce.js';

/** Where the images went: the messages, the images that count (an SVG original does not) and the files posted. */
export interface Delivered {
  posted: Posted;
  images: number;
  files: number;
}

/** Posts what was produced; see the module comment. */
export async function deliver(deps: Pick<JobDeps, 'claims' | 'rules' | 'produce'>, produced: Produced, responder: Responder): Promise<Delivered> {
  const posted = await post(deps, produced, responder).catch(async (err: unknown) => {
    await produced.release(false);
    throw err;
  });
  await produced.release(true);
  const { files } = produced;
  deps.produce.metrics.uploaded(files.reduce((sum, file) => sum + file.bytes.length, 0));
  return { posted, images: imagesIn(files), files: files.length };
}

async function post(deps: Pick<JobDeps, 'claims' | 'rules'>, { ran, answer, files, notices, stream }: Produced, responder: Responder): Promise<Posted> {
  const { job, prepared, enhancement } = ran;
  // A job another process claimed meanwhile is not delivered (nor charged: not sent, it is refunded).
  deps.claims?.check(job.id);
  const upload = await stream?.settle(files);
  // A draft's card says the quality it was made at (its request named none): the member sees why HD is offered.
  const made = prepared.request.quality;
  const shown = job.request.quality === undefined && isDraft(made) ? { ...job, request: { ...job.request, quality: made } } : job;
  return responder.deliver(
    {
      job: shown,
      model: answer.model,
      files,
      notices: [...enhancement.notices, ...notices],
      spoiler: prepared.spoiler,
      actions: actionsOf(prepared.profile, files[0], prepared.request.quality),
      prompts: enhancement.prompts,
      // ✨ Enhance under a result: prompt help is configured and allowed here, and the prompt was not enhanced already.
      enhanceable: deps.rules.promptHelp !== undefined && prepared.promptHelp && enhancement.prompts === undefined,
    },
    upload,
  );
}
