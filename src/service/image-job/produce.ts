/**
 * Step 4, produce: with the job held, the prompt is enhanced when asked (enhance-step.ts), the gateway call waits for
 * the job's turn (generate.ts), and its answer becomes the files to post (delivery-files.ts: SVGs rendered, files
 * fitted to the upload limit). The streaming seam lives here only: the gateway call is a stream of events the step
 * pulls (generate.ts), admitting the answer to the job's memory before it is read; per job, one JobStream supplies
 * the Buffer the answer is decoded into, takes its bytes while they arrive and feeds an upload opened early. What is produced holds the answer's Buffers and room in the memory
 * budget until the deliver step releases them; a failure here releases them itself and carries what was made.
 */
import type { Logger } from 'pino';
import { unknownAnswerBytes } from '../answer-bound.js';
import { chatCostOf } from '../chat-cost.js';
import { costOf } from '../../core/cost.js';
import { deliveryFiles } from '../delivery-files.js';
import { enhancedRequest } from '../enhance-step.js';
import { JobProgressReporter } from '../job-progress.js';
import type { DeliveryFile, DeliveryNotice, ImageJob } from '../../core/jobs.js';
import type { Responder } from '../../ports/responder.js';
import type { JobStream } from '../streaming/streamed-delivery.js';
import type { JobDeps } from './deps.js';
import { queueAndGenerate } from './generate.js';
import { answerOf, JobFailure, step, type Answer, type Prepared, type Ran } from './job-values.js';
import { partialImagesFor } from './preflight.js';

/** A job's images, made and ready to post. */
export interface Produced {
  ran: Ran;
  answer: Answer;
  files: DeliveryFile[];
  /** What the member should know about the files (sizes, re-encodings, SVG clean-ups). */
  notices: DeliveryNotice[];
  /** The upload that began while the answer arrived, if any. */
  stream: JobStream | undefined;
  /** Gives the answer's Buffers and room back: after the post (`delivered`) or without it (the upload is abandoned). */
  release: (delivered: boolean) => Promise<void>;
}

/** Enhances, generates and prepares the files; see the module comment. */
export async function produce(deps: JobDeps, job: ImageJob, prepared: Prepared, responder: Responder, log: Logger): Promise<Produced> {
  const ran = await enhance(deps, job, prepared);
  return step({ ran }, () => generateFiles(deps, ran, responder, log));
}

/**
 * Enhance runs once the request passed every check and its images are held: a request that would be refused never
 * reaches the chat model. It never fails the job (enhance-step.ts); the call that answered is counted and charged,
 * whatever becomes of the job.
 */
async function enhance(deps: JobDeps, job: ImageJob, checked: Prepared): Promise<Ran> {
  const { job: ranJob, prepared, enhancement } = await enhancedRequest(job, checked, deps.rules.promptHelp);
  const used = enhancement.used;
  const cost = used && chatCostOf(used, deps.rules.profiles.of(used.model).profile.prices, prepared.enhanceEstimate);
  return { job: ranJob, prepared, enhancement, promptHelp: used && { ...used, cost } };
}

/** The gateway call and the files of its answer. */
async function generateFiles(deps: JobDeps, ran: Ran, responder: Responder, log: Logger): Promise<Produced> {
  const { job, prepared } = ran;
  const { request } = prepared;
  const { produce: config } = deps;
  const progress = new JobProgressReporter((p) => responder.progress(p), { intervalMs: config.progressIntervalMs, log });
  // The upload begins with the first image bytes, after the last progress edit has landed. An SVG is posted as a PNG
  // rendering beside it (displayable.ts), and spoilers are named when posted, so neither is uploaded as it arrives.
  const stream =
    request.outputFormat === 'svg' || prepared.spoiler
      ? undefined
      : config.streaming?.forJob({
          openUpload: () => responder.openUpload?.(job, { expectedImages: request.n ?? 1, after: progress.stop() }),
          maxFileBytes: responder.maxFileBytes,
        });
  const memory = config.memory.forJob(unknownAnswerBytes(request, partialImagesFor(deps, prepared)));
  // The gateway call has settled (the queue settles a ticket only then) and delivery is over or failed.
  const release = async (delivered: boolean) => {
    await stream?.close(delivered);
    memory.release();
  };
  const result = await queueAndGenerate(deps, job, prepared, responder, { progress, delivery: stream, memory }).catch(async (err: unknown) => {
    await release(false);
    throw err;
  });
  const answer = answerOf(result, costOf(result.usage, prepared.profile.prices, result.images.length));
  try {
    // An SVG's render is admitted to the job's memory (it takes the answer's room again, larger) before it starts.
    const svg = { renderer: config.svg, admit: (bytes: number) => memory.admit(bytes), member: job.subject.userId };
    const { files, notices } = await deliveryFiles(result, responder.maxFileBytes, request, { svg, maxPixels: config.maxDecodePixels });
    return { ran, answer, files, notices, stream, release };
  } catch (err) {
    await release(false);
    throw JobFailure.of(err, { ran, answer });
  }
}
