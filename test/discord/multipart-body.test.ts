/**
 * The growing, replayable multipart body: what it yields parses as RFC 7578 form data (read back with Node's own
 * Response.formData), a second reader gets the same bytes from the start, pieces swapped for the whole file mid-read
 * change nothing, and a failed body fails its readers.
 */
import { describe, expect, it } from 'vitest';
import { MultipartBody } from '../../src/discord/multipart-body.js';

async function readAll(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A file part of a parsed form (FormData.get answers File | string | null). */
function fileAt(form: FormData, name: string): File {
  const value = form.get(name);
  if (!(value instanceof File)) throw new Error(`form part ${name} is not a file`);
  return value;
}

async function formOf(body: MultipartBody, bytes: Buffer): Promise<FormData> {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated for servers' untrusted, unbounded bodies; a test's own small bodies are what it is for.
  return new Response(bytes, { headers: { 'content-type': body.contentType } }).formData();
}

describe('MultipartBody', () => {
  it('frames files then text fields as form data, with names, types and exact bytes', async () => {
    const body = new MultipartBody();
    const image = Buffer.from(Array.from({ length: 5_000 }, (_, i) => i % 256));
    body.beginFile('files[0]', 'a-cat-1.png', 'image/png');
    body.writeFile(image.subarray(0, 1_000));
    body.writeFile(image.subarray(1_000));
    body.endFile();
    body.field('payload_json', JSON.stringify({ content: 'hi "there"' }), 'application/json');
    body.close();
    const bytes = await readAll(body);
    expect(bytes.length).toBe(body.length);
    const form = await formOf(body, bytes);
    const file = fileAt(form, 'files[0]');
    expect([file.name, file.type]).toEqual(['a-cat-1.png', 'image/png']);
    expect(Buffer.from(await file.arrayBuffer()).equals(image)).toBe(true);
    expect(JSON.parse(form.get('payload_json') as string)).toEqual({ content: 'hi "there"' });
  });

  it('lets a reader start before the body is complete, and a second reader replay it from the start', async () => {
    const body = new MultipartBody();
    body.beginFile('files[0]', 'x.png', 'image/png');
    body.writeFile(Buffer.from('first'));
    const early = readAll(body);
    body.writeFile(Buffer.from('-second'));
    const replay = readAll(body);
    body.endFile(Buffer.from('first-second'));
    body.field('payload_json', '{}');
    body.close();
    const [a, b] = await Promise.all([early, replay]);
    expect(a.equals(b)).toBe(true);
    expect(a.equals(await readAll(body))).toBe(true);
    const file = fileAt(await formOf(body, a), 'files[0]');
    expect(Buffer.from(await file.arrayBuffer()).toString()).toBe('first-second');
  });

  it("continues a reader at the right byte when a finished file's pieces are swapped for its whole bytes", async () => {
    const body = new MultipartBody();
    body.beginFile('files[0]', 'x.png', 'image/png');
    body.writeFile(Buffer.from('AAAA'));
    body.writeFile(Buffer.from('BBBB'));
    const reader = body[Symbol.asyncIterator]();
    const seen: Buffer[] = [];
    // The part's head, then the first piece: the reader is inside the file.
    for (let i = 0; i < 2; i += 1) seen.push((await reader.next()).value as Buffer);
    expect(seen.at(-1)?.toString()).toBe('AAAA');
    body.endFile(Buffer.from('AAAABBBB'));
    body.close();
    for (let next = await reader.next(); !next.done; next = await reader.next()) seen.push(next.value);
    const bytes = Buffer.concat(seen);
    expect(bytes.equals(await readAll(body))).toBe(true);
    expect(bytes.toString()).toContain('\r\n\r\nAAAABBBB\r\n');
  });

  it('refuses a whole file that is not what was written', () => {
    const body = new MultipartBody();
    body.beginFile('files[0]', 'x.png', 'image/png');
    body.writeFile(Buffer.from('abc'));
    expect(() => body.endFile(Buffer.from('abcd'))).toThrow(RangeError);
  });

  it('fails a waiting reader, and later ones, with the reason it was given', async () => {
    const body = new MultipartBody();
    body.beginFile('files[0]', 'x.png', 'image/png');
    const waiting = readAll(body);
    const reason = new Error('answer cut off');
    body.fail(reason);
    await expect(waiting).rejects.toBe(reason);
    await expect(readAll(body)).rejects.toBe(reason);
  });

  it('escapes quotes and line breaks in names as browsers do', async () => {
    const body = new MultipartBody();
    body.beginFile('files[0]', 'a"b\r\nc.png', 'image/png');
    body.endFile();
    body.close();
    expect((await readAll(body)).toString()).toContain('filename="a%22b%0D%0Ac.png"');
  });
});
