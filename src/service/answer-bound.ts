/**
 * How much memory budget an answer of unknown length (a stream, or JSON without Content-Length) takes: the most
 * its images can weigh for what was asked. Each image is counted as its pixels uncompressed (4 bytes each: a PNG,
 * JPEG or WebP of those pixels is not larger, bar a few header bytes), in base64 (4/3), once more per partial image
 * a stream carries, with room for the JSON or events around them. The gateway reads no more than that, so an
 * answer beyond it is refused as too large instead of passing the budget; an answer with Content-Length takes
 * exactly that instead.
 */
import type { GenerateRequest } from '../core/image-request.js';

/** `size: auto` (or none): gpt-image-2's largest non-experimental size, 2560x1440, which covers the others'. */
const AUTO_PIXELS = 2560 * 1440;
/** Headers and metadata of one image file, and the JSON or event text around its base64. */
const PER_IMAGE_SLACK = 64 * 1024;
const ANSWER_SLACK = 64 * 1024;

/**
 * The most bytes the answer to `request` may take; `partialImages` is what a streamed request asks for (0 when not
 * streamed). The memory budget caps it at the gateway's response cap.
 */
export function unknownAnswerBytes(request: Pick<GenerateRequest, 'size' | 'n'>, partialImages: number): number {
  const size = request.size ?? 'auto';
  const pixels = size === 'auto' ? AUTO_PIXELS : size.width * size.height;
  const perImage = Math.ceil(((pixels * 4 + PER_IMAGE_SLACK) * 4) / 3);
  return (request.n ?? 1) * (1 + partialImages) * perImage + ANSWER_SLACK;
}
