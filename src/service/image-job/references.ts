/**
 * The request as the gateway gets it, built when the job's turn has come: for an edit, the references are downloaded
 * now (just before the gateway call, so queued jobs hold no images), once their declared bytes fit in the memory
 * budget (each read no further than declared, or than its share without a declared size), and their bytes checked,
 * the mask check included. This is the one validation: the gateway sends what it is given (the ImageGateway contract).
 */
import { UserFacingError } from '../../errors.js';
import { checkedHeader } from '../decode-guard.js';
import { declaredBytes, unsizedImageBytes, validateEditRequest } from '../../core/image-rules.js';
import { checkMask, checkSquare } from '../mask-check.js';
import type { JobMemory } from '../memory-budget.js';
import { outpaint } from '../outpaint.js';
import type { EditRequest, GenerateRequest } from '../../core/images.js';
import { isCanvasTransform } from '../../core/result-actions.js';
import { referencePrompt } from '../../core/style-presets.js';
import type { JobDeps } from './deps.js';
import type { Prepared } from './job-values.js';

type ProduceDeps = JobDeps['produce'];

/** The request to send: as prepared, or for an edit with its references downloaded and checked. */
export async function completeRequest(
  deps: ProduceDeps,
  { request, model, profile, edit }: Prepared,
  memory: JobMemory,
  signal: AbortSignal,
): Promise<GenerateRequest | EditRequest> {
  if (!edit) return request;
  const { images, mask, inputFidelity, transform, roles } = edit;
  const { download, maxDecodePixels } = deps;
  const unsized = unsizedImageBytes(deps.maxAttachmentBytes, deps.memory.referenceBytes);
  await takeReferences(deps, memory, declaredBytes(images, mask, unsized), signal);
  // An embed's or a gallery's image has no declared size: it is read no further than its share (image-rules.ts).
  const [imageBytes, maskBytes] = await Promise.all([
    Promise.all(images.map((ref) => download(ref, ref.size ?? unsized, signal))),
    mask ? download(mask, mask.size ?? unsized, signal) : Promise.resolve(undefined),
  ]);
  // Every reference's header is read before it is sent or decoded: one declaring more than MAX_DECODE_PIXELS is refused.
  await Promise.all([
    ...imageBytes.map((bytes, i) => checkedHeader(bytes, maxDecodePixels, images[i]?.filename)),
    ...(maskBytes && mask ? [checkedHeader(maskBytes, maxDecodePixels, mask.filename)] : []),
  ]);
  // Zoom out, Pan and Vary region: the canvas and the mask are built from the image as it came.
  const canvas = isCanvasTransform(transform) && imageBytes[0] ? await outpaint(imageBytes[0], transform, profile, maxDecodePixels) : undefined;
  const sent = validateEditRequest({
    ...request,
    // Said after enhance has rewritten the member's prompt, and not shown on the card: which image is which.
    ...(roles ? { prompt: referencePrompt(request.prompt, roles) } : {}),
    ...(canvas ? { size: canvas.size } : {}),
    images: canvas ? [{ bytes: canvas.image, filename: 'canvas.png' }] : imageBytes.map((bytes, i) => ({ bytes, filename: images[i]?.filename })),
    mask: canvas ? { bytes: canvas.mask, filename: 'mask.png' } : maskBytes && mask ? { bytes: maskBytes, filename: mask.filename } : undefined,
    inputFidelity,
  });
  await checkMask(sent);
  if (profile.edits?.squarePng) await checkSquare(sent, model);
  return sent;
}

/**
 * Room for an edit's references, waited for in its queue slot (and cluster slot) at most referenceWaitMs, and no
 * longer than the job lives (cancelled, claimed or closed): a job that cannot get room in time gives its slots back.
 */
export async function takeReferences(deps: Pick<ProduceDeps, 'referenceWaitMs'>, memory: JobMemory, bytes: number, signal: AbortSignal): Promise<void> {
  const limit = AbortSignal.timeout(deps.referenceWaitMs);
  try {
    await memory.takeReferences(bytes, AbortSignal.any([signal, limit]));
  } catch (err) {
    if (limit.aborted && !signal.aborted) throw new UserFacingError('memory.busy', {}, { cause: err });
    throw err;
  }
}
