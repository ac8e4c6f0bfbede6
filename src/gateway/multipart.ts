/**
 * The multipart body for /images/edits: text fields first, then one `image[]` part per reference image in order,
 * then the optional `mask`. File names and content types follow the sniffed bytes, because relays such as
 * new-api guess the type from the name's extension. The body is a list of chunks in which each image is the very
 * Buffer the service holds (undici's FormData would copy each image into a Blob); it is rebuilt for every attempt.
 *
 * @see ../../../shared/docs/image-gateway.md §0.2, §3.5, §4.2.2
 */
import { randomBytes } from 'node:crypto';
import type { ImageFormat, InputImage } from '../core/images.js';
import { sniffImageFormat } from '../core/image-rules.js';
import { wireValue, type WireParams } from './params.js';

const EXTENSIONS: Readonly<Record<ImageFormat, string>> = { png: 'png', jpeg: 'jpg', webp: 'webp', gif: 'gif', svg: 'svg' };
const CRLF = Buffer.from('\r\n');

/** An edit form ready to send: its chunks (images not copied), its Content-Type and its exact length. */
export interface EditForm {
  readonly contentType: string;
  readonly length: number;
  readonly chunks: readonly Uint8Array[];
}

/** A safe part file name: the original stem (if any) with the extension of the real format. */
function partFilename(image: InputImage, fallbackStem: string, format: ImageFormat): string {
  const base = (image.filename ?? '').split(/[\\/]/).pop() ?? '';
  const stem = base
    .replace(/\.[^.]*$/, '')
    .replace(/[^\w.-]+/g, '_')
    .slice(0, 80);
  return `${stem || fallbackStem}.${EXTENSIONS[format]}`;
}

/** Builds the edit form. Booleans travel as "true"/"false", numbers as their decimal text. */
export function buildEditForm(params: WireParams, images: readonly InputImage[], mask: InputImage | undefined): EditForm {
  const boundary = `----imagine-bot-${randomBytes(12).toString('hex')}`;
  const chunks: Uint8Array[] = [];
  const head = (disposition: string, type?: string) =>
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`));
  for (const [name, value] of params) {
    head(`name="${name}"`);
    chunks.push(Buffer.from(String(wireValue(value))), CRLF);
  }
  const file = (name: string, image: InputImage, fallbackStem: string) => {
    // The service's validateEditRequest has already refused anything that is not png, jpeg or webp (ImageGateway's contract).
    const format = sniffImageFormat(image.bytes) ?? 'png';
    head(`name="${name}"; filename="${partFilename(image, fallbackStem, format)}"`, `image/${format}`);
    chunks.push(image.bytes, CRLF);
  };
  images.forEach((image, i) => {
    file('image[]', image, `image-${i + 1}`);
  });
  if (mask) file('mask', mask, 'mask');
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, length: chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0), chunks };
}
