/**
 * The gateway call of a job, in the fair queue: it waits for the member's turn (progress shows its place), builds the
 * request then (references.ts), calls the gateway and shows previews and task states as they come. A moderation
 * refusal is counted as a strike; a job whose reply cannot be written, or that another process claimed, is cancelled.
 *
 * The streaming seam: the gateway call is a stream of events (the port's ImageStream, as openai-node's Stream),
 * pulled here. Before any answer is read the call asks for its room (`admission`), answered from the job's share of
 * the memory budget, so every byte is admitted before it is allocated; a JSON answer's Buffer (`buffer`) comes from
 * the job's streamed delivery when there is one (else the gateway allocates it), and its image bytes go to that
 * delivery while they arrive. Previews and task states go to the progress reporter. The call ends with `completed`.
 */
import { UserFacingError } from '../../errors.js';
import { fitPreview } from '../fit-preview.js';
import type { JobProgressReporter } from '../job-progress.js';
import type { ImageJob } from '../../core/jobs.js';
import type { Responder } from '../../ports/responder.js';
import type { JobMemory } from '../memory-budget.js';
import type { EditRequest, GenerateRequest, ImageResult, PartialImage } from '../../core/images.js';
import type { GatewayCallOptions, ImageGateway, ImageStream } from '../../ports/image-gateway.js';
import type { JobStream } from '../streaming/streamed-delivery.js';
import type { JobDeps } from './deps.js';
import type { Prepared } from './job-values.js';
import { partialImagesFor } from './preflight.js';
import { completeRequest } from './references.js';

/** What the call reports to and reads into. */
export interface CallSeams {
  progress: JobProgressReporter;
  /** The job's streamed delivery: the answer's Buffer and bytes go to it while they arrive. */
  delivery: Pick<JobStream, 'buffer' | 'data' | 'end'> | undefined;
  memory: JobMemory;
}

/** Queues the gateway call in the member's lane (their perks) and reports progress until it ends. */
export async function queueAndGenerate(deps: JobDeps, job: ImageJob, prepared: Prepared, responder: Responder, seams: CallSeams): Promise<ImageResult> {
  const { produce, clock, claims } = deps;
  const { progress } = seams;
  const queuedAt = clock.now();
  const hooks = {
    onPosition: (position: number) => {
      progress.queued(position);
    },
    onStart: () => {
      produce.metrics.queueWaited((clock.now() - queuedAt) / 1000);
      progress.started(clock.now());
    },
  };
  const run = (signal: AbortSignal) => callInTurn(deps, job, prepared, responder, seams, signal);
  const ticket = produce.queue.submit(job.subject.userId, run, hooks, job.subject.perks?.lane);
  if (!ticket.accepted) throw queueRefusal(ticket.reason, produce.perMemberQueued);
  // No reply to deliver into: stop waiting or generating (the job refunds).
  responder.ready?.catch(() => ticket.cancel());
  // Claimed by another process: the gateway call is cut too.
  claims?.watching(job.id)?.addEventListener('abort', () => ticket.cancel(), { once: true });
  try {
    return await ticket.result;
  } finally {
    await progress.stop();
  }
}

/** Why the queue did not take a job, as the member reads it. */
export function queueRefusal(reason: 'member_queue_full' | 'closed', perMemberQueued: number): UserFacingError {
  return reason === 'closed' ? new UserFacingError('job.cancelled') : new UserFacingError('queue.full', { limit: perMemberQueued });
}

/** The job's turn has come: the request is completed and sent. */
async function callInTurn(deps: JobDeps, job: ImageJob, prepared: Prepared, responder: Responder, seams: CallSeams, signal: AbortSignal): Promise<ImageResult> {
  const { progress, memory } = seams;
  const { moderation } = deps.rules;
  let shownPreview = -1;
  try {
    // Checked again at the job's turn: a pause that began while it waited stops it before it is sent.
    await moderation?.check(job.subject);
    const request = await completeRequest(deps.produce, prepared, memory, signal);
    const onPartial = (image: PartialImage) => {
      // Shown only as it fits the upload limit (made smaller if need be, never after a later one); the job goes on meanwhile.
      void fitPreview(image, responder.maxFileBytes, (bytes) => deps.produce.memory.tryTake(bytes)).then((fitted) => {
        if (!fitted || fitted.index < shownPreview) return;
        shownPreview = fitted.index;
        progress.preview(fitted);
      });
    };
    return await pullCall(callGateway(deps.gateway, request, partialImagesFor(deps, prepared), signal), { ...seams, onPartial });
  } catch (err) {
    // A moderation refusal is a strike, counted before the job gives its place to the member's next one; the
    // member reads how many are left, or until when they are now paused.
    throw (await moderation?.counted(err, job)) ?? err;
  } finally {
    // The references are read no more once the call has settled (a retry or recovery is part of the call).
    memory.releaseReferences();
  }
}

function callGateway(gateway: ImageGateway, request: GenerateRequest | EditRequest, partialImages: number, signal: AbortSignal): ImageStream {
  const options: GatewayCallOptions = { signal, stream: partialImages > 0, partialImages: partialImages > 0 ? partialImages : undefined };
  return 'images' in request ? gateway.edit(request, options) : gateway.generate(request, options);
}

/** Pulls the call's events until its result (see the module comment); its failure is thrown from the iteration. */
async function pullCall(stream: ImageStream, seams: CallSeams & { onPartial: (image: PartialImage) => void }): Promise<ImageResult> {
  const { delivery, memory, progress } = seams;
  for await (const event of stream) {
    switch (event.type) {
      case 'admission':
        event.answer(memory.admit(event.bytes));
        break;
      case 'buffer':
        if (delivery) event.answer(delivery.buffer(event.bytes));
        break;
      case 'image_data':
        delivery?.data(event.index, event.bytes);
        break;
      case 'image_end':
        delivery?.end(event.index, event.bytes);
        break;
      case 'partial_image':
        seams.onPartial(event.image);
        break;
      case 'task_status':
        progress.taskStatus(event.status);
        break;
      case 'completed':
        return event.result;
    }
  }
  throw new Error('the image call ended without its result');
}
