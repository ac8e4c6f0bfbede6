/**
 * Real image bytes made with sharp, cached per (size, format, background, style, variant, and for 'illustrated' the
 * scene) so repeated requests cost nothing after the first.
 */
import sharp, { type Sharp } from 'sharp';
import { illustrate, type Scene } from './illustration.js';
import { svgDocument, type Rgb } from './svg-image.js';
import type { ImageStyle } from './types.js';

/** Formats of input images (edits) and of most output. */
export type ImageFormat = 'png' | 'jpeg' | 'webp';

/** Every output format: the 2.6 family adds GIF and SVG (model-rules.ts). */
export type OutputFormat = ImageFormat | 'gif' | 'svg';

const OUTPUT_FORMATS: readonly string[] = ['png', 'jpeg', 'webp', 'gif', 'svg'] satisfies OutputFormat[];

/** True for a format the emulator can produce. */
export function isOutputFormat(format: string): format is OutputFormat {
  return OUTPUT_FORMATS.includes(format);
}

/** What to draw. */
export interface ImageSpec {
  width: number;
  height: number;
  format: OutputFormat;
  transparent: boolean;
  style: ImageStyle;
  /** jpeg/webp quality (output_compression). */
  compression?: number | undefined;
  /** Picks one of a few colour variants so the n images of one answer differ. */
  variant: number;
  /** What an 'illustrated' image shows; the other styles ignore it. */
  scene?: Scene | undefined;
}

const PALETTE = [
  { r: 64, g: 128, b: 200 },
  { r: 200, g: 96, b: 64 },
  { r: 80, g: 170, b: 90 },
  { r: 170, g: 90, b: 180 },
] as const;

/** Generates and caches images; one per emulator so tests do not share memory growth. */
export class ImageFactory {
  private readonly cache = new Map<string, Promise<Buffer>>();

  /** The final image for a spec. */
  image(spec: ImageSpec): Promise<Buffer> {
    return this.cached(`final ${specKey(spec)}`, () => renderImage(spec));
  }

  /** A blurrier rendition of the final image, for `partial_image` events. */
  partial(spec: ImageSpec, index: number): Promise<Buffer> {
    return this.cached(`partial${index} ${specKey(spec)}`, async () => {
      if (spec.format === 'svg') return svgDocument(spec, colourOf(spec), index);
      const full = await this.image(spec);
      // Earlier partials are coarser: downscale by 16, 8, 4 and scale back up.
      const factor = 16 >> Math.min(index, 2);
      const small = await sharp(full)
        .resize(Math.max(1, Math.round(spec.width / factor)), Math.max(1, Math.round(spec.height / factor)))
        .toBuffer();
      return encode(sharp(small).resize(spec.width, spec.height), spec);
    });
  }

  /** The image in a format other than the requested one (a gateway that ignores output_format). */
  wrongFormat(spec: ImageSpec): Promise<Buffer> {
    return this.image({ ...spec, format: spec.format === 'png' ? 'jpeg' : 'png', transparent: spec.format === 'png' ? false : spec.transparent });
  }

  private cached(key: string, make: () => Promise<Buffer>): Promise<Buffer> {
    let entry = this.cache.get(key);
    if (!entry) {
      entry = make();
      this.cache.set(key, entry);
      entry.catch(() => this.cache.delete(key));
    }
    return entry;
  }
}

function specKey(spec: ImageSpec): string {
  return `${spec.width}x${spec.height} ${spec.format} ${spec.transparent ? 'transparent' : 'opaque'} ${spec.style} q${spec.compression ?? '-'} ${variantKey(spec)}`;
}

// Illustrated images print their variant number, so it is not folded onto the palette.
function variantKey(spec: ImageSpec): string {
  return spec.style === 'illustrated' ? `v${spec.variant} ${spec.scene?.key ?? '-'}` : `v${spec.variant % PALETTE.length}`;
}

async function renderImage(spec: ImageSpec): Promise<Buffer> {
  // An SVG answer is a simple drawing of the requested size, whatever the style.
  if (spec.format === 'svg') return svgDocument(spec, colourOf(spec));
  if (spec.style === 'illustrated') return encode(await illustrate(spec), spec);
  const channels = spec.transparent ? 4 : 3;
  const pixels = spec.style === 'textured' ? texturedPixels(spec, channels) : flatPixels(spec, channels);
  return encode(sharp(pixels, { raw: { width: spec.width, height: spec.height, channels } }), spec);
}

function encode(image: Sharp, spec: ImageSpec): Promise<Buffer> {
  const quality = spec.compression === undefined ? undefined : Math.max(1, Math.min(100, spec.compression));
  switch (spec.format) {
    case 'png':
      return image.png().toBuffer();
    case 'jpeg':
      // JPEG has no alpha: flatten onto white like the real service.
      return image
        .flatten({ background: '#ffffff' })
        .jpeg(quality === undefined ? {} : { quality })
        .toBuffer();
    case 'webp':
      return image.webp(quality === undefined ? {} : { quality }).toBuffer();
    case 'gif':
      return image.gif().toBuffer();
    case 'svg':
      throw new Error('an SVG is drawn as text (svg-image.ts), not encoded from pixels');
  }
}

function colourOf(spec: ImageSpec): Rgb {
  return PALETTE[spec.variant % PALETTE.length] ?? PALETTE[0];
}

/** A colour field with a centred disc; with transparency the outside of the disc is clear. */
function flatPixels(spec: ImageSpec, channels: number): Buffer {
  const colour = PALETTE[spec.variant % PALETTE.length] ?? PALETTE[0];
  const { width, height } = spec;
  const out = Buffer.alloc(width * height * channels);
  const cx = width / 2;
  const cy = height / 2;
  const r2 = (Math.min(width, height) / 3) ** 2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inside = (x - cx) ** 2 + (y - cy) ** 2 <= r2;
      const i = (y * width + x) * channels;
      out[i] = inside ? 255 - colour.r : colour.r;
      out[i + 1] = inside ? 255 - colour.g : colour.g;
      out[i + 2] = inside ? 255 - colour.b : colour.b;
      if (channels === 4) out[i + 3] = inside ? 255 : 0;
    }
  }
  return out;
}

/**
 * Gradient plus 3 bits of noise per channel (6 for jpeg/webp): PNG cannot compress the noise, which gives the 2–4 MB per
 * 1536x1024 image that real photographic output weighs.
 */
function texturedPixels(spec: ImageSpec, channels: number): Buffer {
  const colour = PALETTE[spec.variant % PALETTE.length] ?? PALETTE[0];
  const { width, height } = spec;
  const out = Buffer.alloc(width * height * channels);
  // Lossy encoders average small noise away, so they get more of it to keep a photo-like weight.
  const mask = spec.format === 'png' ? 7 : 63;
  let seed = (0x9e3779b9 ^ (spec.variant * 2654435761)) >>> 0 || 1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * channels;
      const gx = (x * 160) / width;
      const gy = (y * 160) / height;
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      const noise = seed >>> 0;
      out[i] = Math.min(255, (colour.r >> 1) + gx * 0.5 + (noise & mask));
      out[i + 1] = Math.min(255, (colour.g >> 1) + gy * 0.5 + ((noise >>> 8) & mask));
      out[i + 2] = Math.min(255, (colour.b >> 1) + (gx + gy) * 0.25 + ((noise >>> 16) & mask));
      if (channels === 4) out[i + 3] = Math.min(255, 64 + gy + ((noise >>> 24) & 3));
    }
  }
  return out;
}

/** The format of image bytes by their magic number. */
export function detectFormat(bytes: Buffer): ImageFormat | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

/** Width, height, alpha and channel count of image bytes, or undefined when sharp cannot read them. */
export async function readImageInfo(bytes: Buffer): Promise<{ width: number; height: number; hasAlpha: boolean; channels: number } | undefined> {
  try {
    const { width, height, hasAlpha, channels } = await sharp(bytes).metadata();
    return { width, height, hasAlpha, channels };
  } catch {
    return undefined;
  }
}

/** MIME type of a format. */
export function mimeOf(format: OutputFormat): string {
  return format === 'svg' ? 'image/svg+xml' : `image/${format}`;
}
