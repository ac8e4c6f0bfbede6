/**
 * The streaming JSON image scanner: every result is compared with what JSON.parse plus Buffer.from(base64) make of
 * the whole body, with the body cut into chunks at every position (and byte by byte), so keys, escapes, quads and
 * multi-byte characters split across chunks are all covered.
 */
import { describe, expect, it } from 'vitest';
import { binaryIndex, JsonImageScanner, type ScanListener, type ScannedBody } from '../../src/gateway/json-image-scanner.js';
import { parseJson } from '../../src/gateway/schemas.js';

/**
 * Scans `body` split at the given byte offsets; `sized` tells the scanner the body's length (images decoded into
 * one Buffer), `listener` hears each value as it is decoded.
 */
function scan(body: string | Buffer, cuts: number[] = [], sized = false, listener?: ScanListener): ScannedBody | undefined {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const scanner = new JsonImageScanner(listener, sized ? bytes.length : undefined);
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    scanner.push(bytes.subarray(from, cut));
    from = cut;
  }
  return scanner.end();
}

/** Every way to scan `body`: whole, cut once at each position, and byte by byte; each with and without its length. */
function everySplit(body: string): (ScannedBody | undefined)[] {
  const length = Buffer.byteLength(body);
  return [false, true].flatMap((sized) => {
    const once = Array.from({ length: length + 1 }, (_, cut) => scan(body, [cut], sized));
    return [
      scan(body, [], sized),
      ...once,
      scan(
        body,
        Array.from({ length }, (_, i) => i),
        sized,
      ),
    ];
  });
}

/** Replaces what `visit` picks in a parsed JSON value, at any depth. */
function mapDeep(value: unknown, visit: (key: string, v: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => mapDeep(v, visit));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visit(k, mapDeep(v, visit))]));
}

/** What the whole-body path makes of `body`: b64_json strings decoded at once. */
function reference(body: string): unknown {
  return mapDeep(JSON.parse(body), (k, v) => (k === 'b64_json' && typeof v === 'string' ? Buffer.from(v, 'base64') : v));
}

/** The scan result with its placeholders swapped for their bytes. */
function resolve(scanned: ScannedBody | undefined): unknown {
  if (!scanned) throw new Error('scan failed');
  return mapDeep(JSON.parse(scanned.json), (k, v) => {
    const index = k === 'b64_json' && typeof v === 'string' ? binaryIndex(v) : undefined;
    return index === undefined ? v : scanned.images[index];
  });
}

function expectSameAsWholeBody(body: string): void {
  const expected = reference(body);
  for (const scanned of everySplit(body)) expect(resolve(scanned)).toEqual(expected);
}

const b64 = (...bytes: number[]): string => Buffer.from(bytes).toString('base64');

describe('JsonImageScanner', () => {
  it('decodes every b64_json value and keeps the rest as small JSON, at every chunk boundary', () => {
    const body = JSON.stringify({
      created: 1_700_000_000,
      data: [{ b64_json: b64(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11) }, { b64_json: b64(250, 251, 252, 253), revised_prompt: 'a "b64_json" cat' }],
      usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
    });
    expectSameAsWholeBody(body);
    const scanned = scan(body);
    let index = 0;
    expect(scanned?.json).toBe(body.replace(/"b64_json":"[^"]*"/g, () => `"b64_json":"__bin:${index++}"`));
    expect(JSON.parse(scanned?.json ?? '')).toMatchObject({ data: [{ b64_json: '__bin:0' }, { b64_json: '__bin:1', revised_prompt: 'a "b64_json" cat' }] });
    expect(scanned?.images).toEqual([Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]), Buffer.from([250, 251, 252, 253])]);
  });

  it('accepts whitespace around keys, colons and values', () => {
    expectSameAsWholeBody(`{ "data" : [ {\n\t"b64_json"\r\n :\n\t "${b64(104, 101, 108, 108, 111)}" \n} ] }`);
  });

  it('undoes \\/ and line-break escapes inside base64, even split across chunks', () => {
    const raw = [0xfb, 0xff, 0xbf, 0xff, 0xff, 0xff, 0x01, 0x02];
    const escaped = b64(...raw).replace(/\//g, '\\/');
    expect(escaped).toContain('\\/');
    const wrapped = `${escaped.slice(0, 4)}\\n${escaped.slice(4, 8)}\\r\\n${escaped.slice(8)}`;
    for (const scanned of everySplit(`{"data":[{"b64_json":"${wrapped}"}]}`)) expect(scanned?.images).toEqual([Buffer.from(raw)]);
  });

  it('finds b64_json at any depth and leaves other keys and string values that mention it alone', () => {
    expectSameAsWholeBody(JSON.stringify({ result: { images: [{ meta: { b64_json: b64(9, 8, 7) } }] }, b64_json: b64(6) }));
    const decoys = JSON.stringify({
      note: 'b64_json',
      x: '"b64_json":"AAAA"',
      b64_json_url: 'QUJD',
      xb64_json: 'QUJD',
      b64_jsonx: 'QUJD',
      'b64_json\n': 'QUJD',
      data: [
        { b64_json: null, url: 'https://e/b64_json' },
        { b64_json: 12, n: 'QUJD' },
      ],
    });
    for (const scanned of everySplit(decoys)) expect(scanned).toEqual({ json: decoys, images: [] });
  });

  it('keeps a value whose key is written with escapes as text (correct, only not streamed)', () => {
    const body = `{"data":[{"b64\\u005fjson":"${b64(1, 2, 3)}"}]}`;
    expect(scan(body)).toEqual({ json: body, images: [] });
  });

  it('keeps multi-byte text, escapes and error objects in the small JSON intact', () => {
    const body = JSON.stringify({ error: { message: '额度不足 ✓ "quoted" \\ back', code: null }, data: [] });
    for (const scanned of everySplit(body)) expect(scanned).toEqual({ json: body, images: [] });
  });

  it('decodes an empty value to empty bytes and a large value in uneven chunks', () => {
    expect(scan('{"data":[{"b64_json":""}]}')?.images).toEqual([Buffer.alloc(0)]);
    const image = Buffer.from(Array.from({ length: 200_003 }, (_, i) => (i * 7919) % 256));
    const body = JSON.stringify({ data: [{ b64_json: image.toString('base64') }] });
    const images = scan(body, [25, 26, 16_411, 99_999, 180_000])?.images ?? [];
    // equals(), not toEqual: a failing diff of 200 kB would take minutes to print.
    expect(images.map((bytes) => bytes.equals(image))).toEqual([true]);
  });

  it('turns a large chunk into text 64 KiB at a time, an escape cut by that slicing included', () => {
    // A stream hands over all it has buffered as one chunk; one string of 128 KiB or more would go to V8's
    // large-object space (fresh pages each time), so a value is decoded in slices of at most 64 KiB of text.
    const image = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 256));
    const text = image.toString('base64');
    const prefix = '{"b64_json":"';
    // A line-break escape (backslash, n) whose backslash is the last byte of the value's first 64 KiB slice.
    const cut = 64 * 1024 - 1;
    const body = `${prefix}${text.slice(0, cut)}\\n${text.slice(cut)}"}`;
    expect(body.indexOf('\\n')).toBe(prefix.length + 64 * 1024 - 1);
    const pieces: number[] = [];
    const scanned = scan(body, [], true, { data: (_i, bytes) => void pieces.push(bytes.length), end: () => undefined });
    expect(scanned?.images[0]?.equals(image)).toBe(true);
    expect(pieces.length).toBeGreaterThan(5);
    expect(Math.max(...pieces)).toBeLessThanOrEqual((64 * 1024 * 3) / 4);
  });

  it('tells a listener each value as it is decoded: pieces that join up to it, then all of it', () => {
    const images = [Buffer.from(Array.from({ length: 90_001 }, (_, i) => (i * 31) % 256)), Buffer.from('second image'), Buffer.alloc(0)];
    const body = JSON.stringify({ data: images.map((image) => ({ b64_json: image.toString('base64') })), usage: { total_tokens: 3 } });
    for (const sized of [false, true]) {
      const pieces: Buffer[][] = [[], [], []];
      const ends: [number, Buffer][] = [];
      const scanned = scan(body, [40, 4_000, 64_000, 119_000], sized, {
        data: (index, bytes) => {
          expect(ends.map(([i]) => i)).not.toContain(index);
          pieces[index]?.push(bytes);
        },
        end: (index, bytes) => void ends.push([index, bytes]),
      });
      expect(ends.map(([index]) => index)).toEqual([0, 1, 2]);
      ends.forEach(([index, bytes]) => {
        expect(bytes.equals(images[index]!)).toBe(true);
        expect(Buffer.concat(pieces[index]!).equals(bytes)).toBe(true);
        // The scan result holds the very Buffers the listener was given.
        expect(scanned?.images[index]).toBe(bytes);
      });
    }
  });

  it('decodes all images of a body of known length into one Buffer, without copying them', () => {
    // Larger than Node's small-buffer pool, so separate allocations would have separate ArrayBuffers.
    const images = [Buffer.alloc(30_000, 1), Buffer.alloc(20_000, 2)];
    const body = JSON.stringify({ data: images.map((image) => ({ b64_json: image.toString('base64') })) });
    const cuts = [30, 31, 9_000, 50_000];
    const sized = scan(body, cuts, true)?.images ?? [];
    expect(sized.map((bytes, i) => bytes.equals(images[i]!))).toEqual([true, true]);
    expect(sized[0]?.buffer).toBe(sized[1]?.buffer);
    expect(sized[0]?.buffer.byteLength).toBe(Math.floor((Buffer.byteLength(body) * 3) / 4));
    // The control: without the length, each image is its own allocation.
    const unsized = scan(body, cuts)?.images ?? [];
    expect(unsized[0]?.buffer).not.toBe(unsized[1]?.buffer);
  });

  it('decodes into the Buffer its allocator supplies, larger than needed or not', () => {
    const images = [Buffer.alloc(30_000, 1), Buffer.alloc(20_000, 2)];
    const bytes = Buffer.from(JSON.stringify({ data: images.map((image) => ({ b64_json: image.toString('base64') })) }));
    const supplied = Buffer.alloc(bytes.length * 2, 0xee);
    const asked: number[] = [];
    const scanner = new JsonImageScanner(undefined, bytes.length, (size) => {
      asked.push(size);
      return supplied;
    });
    scanner.push(bytes.subarray(0, 12_345));
    scanner.push(bytes.subarray(12_345));
    const decoded = scanner.end()?.images ?? [];
    expect(asked).toEqual([Math.floor((bytes.length * 3) / 4)]);
    expect(decoded.map((image, i) => image.equals(images[i]!))).toEqual([true, true]);
    expect(decoded[0]?.buffer).toBe(supplied.buffer);
    expect(decoded[1]?.buffer).toBe(supplied.buffer);
    expect(decoded[0]?.byteOffset).toBe(supplied.byteOffset);
  });

  it.each([
    ['clean padded base64', b64(1, 2, 3, 4, 5, 6, 7)],
    ['clean base64 without padding', b64(1, 2, 3, 4, 5).replace(/=+$/, '')],
    ['url-safe letters', '-_-_QUJD'],
    ['spaces inside', 'QU JD RE VG'],
    ['a stray character in a length of 4k+1', 'QU*JD'],
    ['a stray character before the closing padding', 'QUJD!RA=='],
    ['a lone trailing character', 'QUJDR'],
  ])('decodes %s as Node does the whole value (fast and slow paths agree), at every split', (_name, value) => {
    expectSameAsWholeBody(JSON.stringify({ data: [{ b64_json: value }], n: 1 }));
  });

  it('still fails on a control character where the decoded length cannot show it (4k+1 characters)', () => {
    for (const scanned of everySplit('{"data":[{"b64_json":"QU\u0001JD"}]}')) expect(scanned).toBeUndefined();
  });

  it('never yields parseable JSON for a body cut short', () => {
    const body = JSON.stringify({ created: 1, data: [{ b64_json: b64(1, 2, 3, 4) }], usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } });
    for (let length = 0; length < body.length; length += 1) {
      const scanned = scan(body.slice(0, length), [Math.floor(length / 2)]);
      expect(scanned === undefined || parseJson(scanned.json) === undefined).toBe(true);
    }
  });

  it.each([
    ['a unicode escape', '\\u0041AAA'],
    ['an escaped quote', 'AA\\"AA'],
    ['an escaped backslash', 'AA\\\\AA'],
    ['a raw control character', 'AA\u0001AA'],
  ])('fails on %s inside a b64_json value', (_name, value) => {
    const body = `{"data":[{"b64_json":"${value}"}]}`;
    for (const scanned of everySplit(body)) expect(scanned).toBeUndefined();
  });

  it('passes a body that is not JSON through, for JSON.parse to reject', () => {
    const page = '<html><body>502 Bad Gateway</body></html>';
    expect(scan(page)).toEqual({ json: page, images: [] });
    expect(scan('{"b64_json" "QUJD"}')).toEqual({ json: '{"b64_json" "QUJD"}', images: [] });
    // Not a validator: text that looks like a b64_json member is still taken, and the rest still fails to parse.
    const mention = '<html>"b64_json": "QUJD"</html>';
    expect(scan(mention)).toEqual({ json: '<html>"b64_json": "__bin:0"</html>', images: [Buffer.from('ABC')] });
  });

  it('reads placeholders back and nothing else', () => {
    expect(binaryIndex('__bin:12')).toBe(12);
    expect(binaryIndex('QUJD')).toBeUndefined();
    expect(binaryIndex('__bin:1x')).toBeUndefined();
  });
});
