/**
 * multipart/form-data parsing (undici's Response.formData) and the spec-validator view of a form.
 */
import { Response } from 'undici';
import type { RecordedForm } from './types.js';

/** Parses a multipart body; throws when it is not valid multipart. */
export async function parseMultipart(body: Buffer, contentType: string): Promise<RecordedForm> {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated for servers' untrusted, unbounded bodies; a test's own small bodies are what it is for.
  const formData = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  const form: RecordedForm = { fields: {}, files: [], order: [] };
  for (const [name, value] of formData.entries()) {
    form.order.push(name);
    if (typeof value === 'string') {
      form.fields[name] = value;
    } else {
      form.files.push({ field: name, filename: value.name, contentType: value.type, bytes: Buffer.from(await value.arrayBuffer()) });
    }
  }
  return form;
}

/** The image parts in wire order: repeated `image[]`, a single `image`, or indexed `image[N]` (new-api accepts all). */
export function imageParts(form: RecordedForm): RecordedForm['files'] {
  return form.files.filter((f) => f.field === 'image' || f.field === 'image[]' || /^image\[\d+\]$/.test(f.field));
}

/**
 * The object the OpenAPI validator checks: scalars as strings, `image` as an array of placeholders, `mask` as a
 * placeholder, other file parts as placeholders under their own name.
 */
export function formForValidation(form: RecordedForm): Record<string, unknown> {
  const subject: Record<string, unknown> = { ...form.fields };
  const images = imageParts(form);
  if (images.length > 0) subject['image'] = images.map((f) => `<file ${f.filename}>`);
  for (const file of form.files) {
    if (images.includes(file)) continue;
    subject[file.field] = `<file ${file.filename}>`;
  }
  return subject;
}
