/**
 * Fits generated images under Discord's per-file upload limit (the interaction's `attachment_size_limit`).
 * @see https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object
 */
import { loadSharp } from '../lazy-sharp.js';
import type { GeneratedImage, ImageFormat } from '../core/images.js';

/** What became of one image. */
export type FitOutcome =
  { kind: 'original'; image: GeneratedImage } | { kind: 'reencoded'; image: GeneratedImage; from: ImageFormat } | { kind: 'dropped'; bytes: number };

/**
 * Encodings to try, best looking first. WebP keeps transparency and is smaller than JPEG at the same visual
 * quality, so it goes first. JPEG (plain libjpeg-turbo: mozjpeg is about twenty times slower for a few percent)
 * reaches smaller sizes at its low qualities, but only for opaque images: it has no alpha channel, and flattening
 * would silently lose a transparent background the member asked for.
 */
const LADDER: readonly { format: 'webp' | 'jpeg'; qualities: readonly number[] }[] = [
  { format: 'webp', qualities: [90, 80, 65, 50] },
  { format: 'jpeg', qualities: [85, 70, 55, 40] },
];

interface Decoded {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
  translucent: boolean;
}

/**
 * Returns the image unchanged when it fits `limitBytes`, else the best-looking re-encoding that fits (see
 * {@link LADDER}), else `dropped`. An oversized image that cannot be decoded is dropped too: it could not be
 * posted either. `maxPixels` (MAX_DECODE_PIXELS) is sharp's decoding guard, so a corrupt or hostile header cannot
 * make it allocate gigabytes.
 */
export async function fitToLimit(image: GeneratedImage, limitBytes: number, maxPixels: number): Promise<FitOutcome> {
  if (image.bytes.length <= limitBytes) return { kind: 'original', image };
  const decoded = await decode(image.bytes, maxPixels);
  if (decoded === undefined) return { kind: 'dropped', bytes: image.bytes.length };
  for (const { format, qualities } of LADDER) {
    if (format === 'jpeg' && decoded.translucent) break;
    const bytes = await bestFit(decoded, format, qualities, limitBytes);
    if (bytes !== undefined) {
      const { width, height } = decoded;
      return { kind: 'reencoded', image: { bytes, format, width, height }, from: image.format };
    }
  }
  return { kind: 'dropped', bytes: image.bytes.length };
}

/**
 * The highest quality of `qualities` (best first) whose encoding fits. Size falls with quality, so after the best
 * misses, the worst is tried next: when even that misses, the qualities in between are skipped. A typical image
 * costs one encode; a hopeless one two per format.
 */
async function bestFit(decoded: Decoded, format: 'webp' | 'jpeg', qualities: readonly number[], limitBytes: number): Promise<Buffer | undefined> {
  const [best, ...middle] = qualities;
  const worst = middle.pop();
  if (best === undefined) return undefined;
  const first = await encode(decoded, format, best);
  if (first.length <= limitBytes) return first;
  if (worst === undefined) return undefined;
  const floor = await encode(decoded, format, worst);
  if (floor.length > limitBytes) return undefined;
  for (const quality of middle) {
    const bytes = await encode(decoded, format, quality);
    if (bytes.length <= limitBytes) return bytes;
  }
  return floor;
}

/** Decodes once to raw pixels, so each step of the ladder only pays for encoding. */
async function decode(bytes: Buffer, maxPixels: number): Promise<Decoded | undefined> {
  const sharp = await loadSharp();
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: maxPixels }).raw().toBuffer({ resolveWithObject: true });
    const { width, height, channels } = info;
    const hasAlpha = channels === 2 || channels === 4;
    if (!hasAlpha || !isOpaque(data, channels)) {
      return { data, width, height, channels, translucent: hasAlpha };
    }
    // An alpha channel that is fully opaque carries nothing; dropping it makes encodes smaller and allows JPEG.
    const rgb = await sharp(data, { raw: { width, height, channels } }).removeAlpha().raw().toBuffer();
    return { data: rgb, width, height, channels: channels === 4 ? 3 : 1, translucent: false };
  } catch {
    return undefined;
  }
}

function isOpaque(data: Buffer, channels: number): boolean {
  for (let i = channels - 1; i < data.length; i += channels) if (data[i] !== 255) return false;
  return true;
}

async function encode(decoded: Decoded, format: 'webp' | 'jpeg', quality: number): Promise<Buffer> {
  const { data, width, height, channels } = decoded;
  const sharp = await loadSharp();
  const pipeline = sharp(data, { raw: { width, height, channels } });
  return format === 'webp' ? pipeline.webp({ quality }).toBuffer() : pipeline.jpeg({ quality }).toBuffer();
}
