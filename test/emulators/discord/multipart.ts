/**
 * Request-body parsing: JSON, or multipart/form-data with `payload_json` and `files[n]` parts (Discord's upload format).
 */
import { Response } from 'undici';
import type { RecordedFile } from './types.js';

export interface ParsedBody {
  /** media type without parameters ('' when there was no body) */
  contentType: string;
  /** JSON body, or the parsed payload_json (plus any other text fields) of a multipart body */
  payload: any;
  files: RecordedFile[];
}

/** Thrown for bodies that cannot be parsed; the server answers 400 with `code`. */
export class BodyParseError extends Error {
  override name = 'BodyParseError';
  readonly code: number;
  constructor(message: string, code: number) {
    super(message);
    this.code = code;
  }
}

/** Parses a request body by its Content-Type header. */
export async function parseBody(raw: Buffer, contentTypeHeader: string | undefined): Promise<ParsedBody> {
  const contentType = (contentTypeHeader ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (raw.length === 0) return { contentType, payload: undefined, files: [] };
  if (contentType === 'application/json') return { contentType, payload: parseJson(raw.toString('utf8')), files: [] };
  if (contentType === 'multipart/form-data') return parseMultipart(raw, contentTypeHeader ?? '');
  throw new BodyParseError(`Unsupported Content-Type ${contentType || '(none)'}`, 50035);
}

async function parseMultipart(raw: Buffer, header: string): Promise<ParsedBody> {
  let form: Awaited<ReturnType<Response['formData']>>;
  try {
    form = await new Response(raw, { headers: { 'content-type': header } }).formData();
  } catch (err) {
    throw new BodyParseError(`Invalid multipart body: ${String(err)}`, 50035);
  }
  let payload: Record<string, unknown> = {};
  const fields: Record<string, unknown> = {};
  const files: RecordedFile[] = [];
  for (const [field, value] of form) {
    if (typeof value === 'string') {
      if (field === 'payload_json') payload = parseJson(value);
      else fields[field] = value;
      continue;
    }
    files.push({ field, filename: value.name, contentType: value.type || 'application/octet-stream', bytes: Buffer.from(await value.arrayBuffer()) });
  }
  return { contentType: 'multipart/form-data', payload: { ...fields, ...payload }, files };
}

function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    throw new BodyParseError('The request body contains invalid JSON.', 50109);
  }
}
