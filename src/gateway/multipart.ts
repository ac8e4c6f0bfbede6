/**
 * The multipart body for /images/edits: text fields first, then one `image[]` part per reference image in order,
 * then the optional `mask`. File names and content types follow the sniffed bytes, because relays such as
 * new-api guess the type from the name's extension.
 *
 * @see ../../../shared/docs/image-gateway.md §0.2, §3.5, §4.2.2
 */
import { Blob } from 'node:buffer';
import { FormData } from 'undici';
import type { ImageFormat, InputImage } from '../service/ports.js';
import { sniffImageFormat } from '../service/image-rules.js';
import type { WireParams } from './params.js';

const EXTENSIONS: Readonly<Record<ImageFormat, string>> = { png: 'png', jpeg: 'jpg', webp: 'webp' };

/** The MIME type of an image format. */
function mimeType(format: ImageFormat): string {
  return `image/${format}`;
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

function filePart(image: InputImage, fallbackStem: string): { blob: Blob; filename: string } {
  // The service's validateEditRequest has already refused anything that is not png, jpeg or webp (ImageGateway's contract).
  const format = sniffImageFormat(image.bytes) ?? 'png';
  return { blob: new Blob([image.bytes], { type: mimeType(format) }), filename: partFilename(image, fallbackStem, format) };
}

/** Builds the edit form. Booleans travel as "true"/"false", numbers as their decimal text. */
export function buildEditForm(params: WireParams, images: readonly InputImage[], mask: InputImage | undefined): FormData {
  const form = new FormData();
  for (const [name, value] of params) form.append(name, String(value));
  images.forEach((image, i) => {
    const part = filePart(image, `image-${i + 1}`);
    form.append('image[]', part.blob, part.filename);
  });
  if (mask) {
    const part = filePart(mask, 'mask');
    form.append('mask', part.blob, part.filename);
  }
  return form;
}
