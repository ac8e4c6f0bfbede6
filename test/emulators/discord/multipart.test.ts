/**
 * The emulator's upload parsing (@fastify/busboy): Discord's payload_json plus files[n] parts, and the errors a
 * malformed body gets.
 */
import { FormData, Response } from 'undici';
import { describe, expect, it } from 'vitest';
import { BodyParseError, parseBody, startMultipartParse } from './multipart.js';

async function encode(form: FormData): Promise<{ raw: Buffer; contentType: string }> {
  const response = new Response(form);
  return { raw: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? '' };
}

async function upload() {
  const form = new FormData();
  form.append('payload_json', JSON.stringify({ content: 'hello', attachments: [{ id: 0, filename: 'kätzchen-猫.png' }] }));
  form.append('files[0]', new Blob([Buffer.alloc(300_000, 7)], { type: 'image/png' }), 'kätzchen-猫.png');
  form.append('files[1]', new Blob([Buffer.from('second')], { type: 'image/webp' }), 'b.webp');
  return encode(form);
}

function parseError(promise: Promise<unknown>): Promise<BodyParseError> {
  return promise.then(
    () => {
      throw new Error('expected a BodyParseError');
    },
    (err: unknown) => {
      if (err instanceof BodyParseError) return err;
      throw err;
    },
  );
}

describe('parseBody (multipart/form-data)', () => {
  it('reads payload_json and every file in order, with its name, type and exact bytes', async () => {
    const { raw, contentType } = await upload();
    const parsed = await parseBody(raw, contentType);
    expect(parsed.payload).toEqual({ content: 'hello', attachments: [{ id: 0, filename: 'kätzchen-猫.png' }] });
    expect(parsed.files.map((f) => [f.field, f.filename, f.contentType, f.bytes.length])).toEqual([
      ['files[0]', 'kätzchen-猫.png', 'image/png', 300_000],
      ['files[1]', 'b.webp', 'image/webp', 6],
    ]);
    expect(parsed.files[0]?.bytes.equals(Buffer.alloc(300_000, 7))).toBe(true);
  });

  it('parses the same while the body arrives in chunks (as the server feeds it)', async () => {
    const { raw, contentType } = await upload();
    const streaming = startMultipartParse(contentType)!;
    for (let at = 0; at < raw.length; at += 7_919) streaming.write(raw.subarray(at, at + 7_919));
    streaming.end();
    expect(await streaming.result).toEqual(await parseBody(raw, contentType));
    expect(startMultipartParse('application/json')).toBeUndefined();
  });

  it('answers 50035 for a body cut short and for a content type without a boundary', async () => {
    const { raw, contentType } = await upload();
    expect((await parseError(parseBody(raw.subarray(0, raw.length - 100), contentType))).code).toBe(50035);
    expect((await parseError(parseBody(raw, 'multipart/form-data'))).code).toBe(50035);
  });

  it('answers 50109 for a payload_json that is not JSON', async () => {
    const form = new FormData();
    form.append('payload_json', '{"content": ');
    const { raw, contentType } = await encode(form);
    expect((await parseError(parseBody(raw, contentType))).code).toBe(50109);
  });
});
