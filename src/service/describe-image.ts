/**
 * The image part of a describe (describe-service.ts), bounded (issue 28): room in the describes' region of the memory
 * budget for the image as Discord declares it plus the downscale's work, taken before the download; more taken
 * (without waiting) as the bytes actually arrive beyond it; once the image is downscaled (vision-image.ts: about
 * 2048 px, at most 4 MB) only what its data URL and request hold is kept until the vision model has answered. The
 * whole of it (room, download, downscale, vision call) runs within a time limit.
 */
import { UserFacingError } from '../errors.js';
import { checkedHeader } from './decode-guard.js';
import { DEFAULT_MAX_DECODE_PIXELS, sniffImageFormat } from '../core/image-rules.js';
import type { AttachmentRef } from '../core/jobs.js';
import type { DescribeHold, MemoryBudget } from './memory-budget.js';
import { phrase } from '../core/phrase.js';
import type { Description, PromptHelp } from './prompt-help.js';
import { DOWNSCALE_WORK_BYTES, VISION_MAX_BYTES, visionImage } from './vision-image.js';

/** What {@link describeWithin} needs (a subset of the describe service's options). */
export interface DescribeImageDeps {
  help: Pick<PromptHelp, 'describe'>;
  /** Downloads an attachment, reading at most `maxBytes`, telling `admit` the bytes it is about to hold (which may refuse by throwing). */
  download: (ref: AttachmentRef, maxBytes: number, signal?: AbortSignal, admit?: (bytes: number) => void) => Promise<Buffer>;
  memory?: Pick<MemoryBudget, 'takeDescribe' | 'describeBytes'> | undefined;
  maxDecodePixels?: number | undefined;
  /** @default 120000 */
  timeLimitMs?: number | undefined;
}

/** Formats a vision model reads. */
const READABLE = new Set(['png', 'jpeg', 'webp', 'gif']);

/**
 * What describing an image of `bytes` holds at its peak: the image, its base64 data URL, the request body that
 * carries it as a string and as bytes (base64 is 4/3 of the image).
 */
export function describeHeldBytes(bytes: number): number {
  return bytes + 3 * Math.ceil((bytes * 4) / 3);
}

/** What a describe holds once its image is downscaled: the image sent, its data URL and the request carrying it. */
const SENT_BYTES = describeHeldBytes(VISION_MAX_BYTES);
/** Beyond the downloaded image, what a describe holds at most (its downscale, or what it sends). */
export const DESCRIBE_WORK_BYTES = Math.max(DOWNSCALE_WORK_BYTES, SENT_BYTES);

/** The room first taken for an image Discord declares no size for (then grown as its bytes arrive). */
const UNSIZED_GUESS_BYTES = 8 * 1024 * 1024;

/** One describe of `image` (at most `max` bytes) within its time limit and its room in the budget, given back however it ends. */
export async function describeWithin(deps: DescribeImageDeps, image: AttachmentRef, max: number): Promise<Description> {
  const limitMs = deps.timeLimitMs ?? 120_000;
  const signal = AbortSignal.timeout(limitMs);
  // An image of no declared size (an embed's, a gallery's) starts from a guess; its download takes more if need be.
  const hold = await takeMemory(deps, Math.min(image.size ?? UNSIZED_GUESS_BYTES, max), signal);
  try {
    return await read(deps, { image, max, hold, signal, timeoutSeconds: Math.max(1, Math.ceil(limitMs / 1000)) });
  } catch (err) {
    if (signal.aborted && !(err instanceof UserFacingError)) throw new UserFacingError('promptHelp.failed', {}, { cause: err });
    throw err;
  } finally {
    hold?.release();
  }
}

interface Reading {
  image: AttachmentRef;
  max: number;
  hold: DescribeHold | undefined;
  signal: AbortSignal;
  timeoutSeconds: number;
}

/**
 * Downloads the image (each byte admitted to the hold before it is held), downscales it and asks the vision model
 * about it; the download itself is let go once downscaled, and the hold shrinks to match.
 */
async function read(deps: DescribeImageDeps, { image, max, hold, signal, timeoutSeconds }: Reading): Promise<Description> {
  const admit = (bytes: number) => {
    if (hold && !hold.growTo(DESCRIBE_WORK_BYTES + bytes)) throw new UserFacingError('describe.busy');
  };
  const sent = await downscaled(deps, image, await deps.download(image, max, signal, admit), timeoutSeconds);
  hold?.shrinkTo(describeHeldBytes(sent.bytes.length));
  signal.throwIfAborted();
  return deps.help.describe(`data:image/${sent.format};base64,${sent.bytes.toString('base64')}`, signal);
}

/** The downloaded image, checked and made small (vision-image.ts); the download is not referenced past this. */
async function downscaled(deps: DescribeImageDeps, image: AttachmentRef, bytes: Buffer, timeoutSeconds: number) {
  const format = sniffImageFormat(bytes);
  if (format === undefined || !READABLE.has(format))
    throw new UserFacingError('input.attachmentInvalid', { param: image.filename, detail: phrase('detail.image.notDescribable') });
  // Its header, before anything decodes it: more than MAX_DECODE_PIXELS is refused.
  await checkedHeader(bytes, deps.maxDecodePixels ?? DEFAULT_MAX_DECODE_PIXELS, image.filename);
  return visionImage(bytes, format as 'png' | 'jpeg' | 'webp' | 'gif', image.filename, timeoutSeconds);
}

/**
 * Room in the describes' region for an image of `bytes` (as declared: a hint, the download takes more if it brings
 * more) and its work, waited for within the time limit (past it: describe.busy).
 */
async function takeMemory(deps: DescribeImageDeps, bytes: number, signal: AbortSignal): Promise<DescribeHold | undefined> {
  const memory = deps.memory;
  if (!memory) return undefined;
  try {
    return await memory.takeDescribe(Math.min(DESCRIBE_WORK_BYTES + bytes, memory.describeBytes), signal);
  } catch (err) {
    if (signal.aborted) throw new UserFacingError('describe.busy', {}, { cause: err });
    throw err;
  }
}
