/**
 * Request-body parsing: JSON, or multipart/form-data with `payload_json` and `files[n]` parts (Discord's upload format).
 */
import { Busboy } from '@fastify/busboy';
import type { RecordedFile } from './types.js';

/** Larger than any payload_json Discord accepts, so a big one is checked by the rules, not cut by the parser. */
const MAX_FIELD_BYTES = 8 * 1024 * 1024;

export interface ParsedBody {
  /** media type without parameters ('' when there was no body) */
  contentType: string;
  /** JSON body, or the parsed payload_json (plus any other text fields) of a multipart body */
  payload: unknown;
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

/** A multipart body parsed while it arrives: chunks are written as they are read, so parsing overlaps the transfer. */
export interface StreamingBodyParse {
  write(chunk: Buffer): void;
  end(): void;
  /** Settles after end(); rejects with a BodyParseError. */
  readonly result: Promise<ParsedBody>;
}

/** Starts a streaming parse when the Content-Type is multipart/form-data; undefined otherwise. */
export function startMultipartParse(contentTypeHeader: string | undefined): StreamingBodyParse | undefined {
  const contentType = (contentTypeHeader ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return contentType === 'multipart/form-data' ? multipartParse(contentTypeHeader ?? '') : undefined;
}

function parseMultipart(raw: Buffer, header: string): Promise<ParsedBody> {
  const parse = multipartParse(header);
  parse.write(raw);
  parse.end();
  return parse.result;
}

/**
 * Parses with @fastify/busboy: on a multi-megabyte upload it takes a fraction of the time undici's
 * Response.formData takes, so the emulator's own parsing hardly counts in the benchmark's timings. A part without
 * a Content-Type is text/plain, as RFC 7578 says.
 */
function multipartParse(header: string): StreamingBodyParse {
  let parser: InstanceType<typeof Busboy> | undefined;
  let failure: unknown;
  try {
    parser = new Busboy({ headers: { 'content-type': header }, limits: { fieldSize: MAX_FIELD_BYTES } });
  } catch (err) {
    failure = err;
  }
  const result = new Promise<ParsedBody>((resolve, reject) => {
    const fail = (err: unknown) => reject(new BodyParseError(`Invalid multipart body: ${String(err)}`, 50035));
    if (!parser) {
      fail(failure);
      return;
    }
    const texts: [string, string][] = [];
    const files: Promise<RecordedFile>[] = [];
    parser.on('field', (field, value) => void texts.push([field, value]));
    parser.on('file', (field, stream, filename, _encoding, contentType) => {
      files.push(
        new Promise((done, failed) => {
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', failed);
          stream.on('end', () => done({ field, filename, contentType, bytes: Buffer.concat(chunks) }));
        }),
      );
    });
    parser.on('error', fail);
    parser.on('finish', () => {
      Promise.all(files).then((recorded) => {
        let payload: Record<string, unknown> = {};
        const fields: Record<string, unknown> = {};
        try {
          for (const [field, value] of texts) {
            if (field === 'payload_json') payload = parseJson(value) as Record<string, unknown>;
            else fields[field] = value;
          }
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
          return;
        }
        resolve({ contentType: 'multipart/form-data', payload: { ...fields, ...payload }, files: recorded });
      }, fail);
    });
  });
  // Awaited by whoever uses the body; a request answered without it (an injected failure) must not leak a rejection.
  result.catch(() => undefined);
  return {
    result,
    write: (chunk) => void parser?.write(chunk),
    end: () => void parser?.end(),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new BodyParseError('The request body contains invalid JSON.', 50109);
  }
}
