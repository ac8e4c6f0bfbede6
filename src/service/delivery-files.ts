/**
 * From the gateway's images to the files a reply posts: displayable (displayable.ts), under Discord's per-file limit
 * (fit-attachment.ts), with the notes the member reads (another size made, parameters the gateway ignored, images
 * re-encoded or dropped).
 */
import { UserFacingError } from '../errors.js';
import { displayable, type SvgRendering } from './displayable.js';
import { fitToLimit } from './fit-attachment.js';
import { type SizeChoice, sizeText } from '../core/sizes.js';
import type { DeliveryFile, DeliveryNotice } from '../core/jobs.js';
import type { ImageResult } from '../core/images.js';

/** The images among the files: what the member is charged for (an SVG's original beside its rendering is not one). */
export function imagesIn(files: readonly DeliveryFile[]): number {
  return files.filter((file) => file.original !== true).length;
}

/** A note when the gateway made another size than asked (some models ignore `size`); none for `auto` or no size. */
function sizeDiffers(result: ImageResult, requestedSize: SizeChoice | undefined): DeliveryNotice | undefined {
  const asked = result.sizeFallback?.used ?? requestedSize;
  if (asked === undefined || asked === 'auto') return undefined;
  const other = result.images.find((image) => image.width !== asked.width || image.height !== asked.height);
  return other ? { kind: 'sizeDiffers', requested: sizeText(asked), made: sizeText(other) } : undefined;
}

/**
 * The files to post: every image made displayable (an SVG sanitised and rendered as a PNG within bounds, the
 * sanitised SVG beside it: displayable.ts) and fitted to the destination's per-file limit (decoding no more than
 * `maxPixels`), and the notes the member reads about them. Dropped images are not delivered (and
 * not charged); when the gateway made fewer images than `asked.n`, the first note says how many came back and how
 * many are charged.
 */
export async function deliveryFiles(
  result: ImageResult,
  maxFileBytes: number,
  asked: { size?: SizeChoice | undefined; n?: number | undefined },
  { svg, maxPixels }: { svg: SvgRendering; maxPixels: number },
): Promise<{ files: DeliveryFile[]; notices: DeliveryNotice[] }> {
  const shown = await displayable(result.images, svg);
  const outcomes = await Promise.all(shown.map(({ image }) => fitToLimit(image, maxFileBytes, maxPixels)));
  const files: DeliveryFile[] = [];
  let reencoded = 0;
  let dropped = 0;
  let reencodedFormat: DeliveryFile['format'] = 'webp';
  for (const [i, outcome] of outcomes.entries()) {
    if (outcome.kind === 'dropped') {
      dropped += 1;
      continue;
    }
    if (outcome.kind === 'reencoded') {
      reencoded += 1;
      reencodedFormat = outcome.image.format;
    }
    files.push(outcome.image);
    // The vector original goes beside its rendering when it fits too (it is not another image: not charged).
    const original = shown[i]?.original;
    if (original && original.bytes.length <= maxFileBytes) files.push({ ...original, original: true });
  }
  const notices: DeliveryNotice[] = [];
  const requested = asked.n ?? 1;
  if (result.images.length < requested) notices.push({ kind: 'fewer', requested, received: result.images.length, charged: imagesIn(files) });
  if (result.sizeFallback) notices.push({ kind: 'sizeFallback', requested: sizeText(result.sizeFallback.requested), used: sizeText(result.sizeFallback.used) });
  const differs = sizeDiffers(result, asked.size);
  if (differs) notices.push(differs);
  // Streaming is the bot's business, not the member's: a gateway that refused it gets no note.
  const ignored = result.droppedParams.filter((param) => param !== 'stream' && param !== 'partial_images');
  if (ignored.length > 0) notices.push({ kind: 'droppedParams', params: ignored });
  if (reencoded > 0) notices.push({ kind: 'reencoded', count: reencoded, format: reencodedFormat });
  if (dropped > 0) notices.push({ kind: 'dropped', count: dropped });
  const removed = shown.some((s) => s.changes?.removed === true);
  const simplified = shown.some((s) => s.changes?.simplified === true);
  if (removed || simplified) notices.push({ kind: 'svgCleaned', removed, simplified });
  if (files.length === 0) throw new UserFacingError('delivery.failed');
  return { files, notices };
}
