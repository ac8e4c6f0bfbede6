/**
 * Uploaded files kept as they arrived: read whole only when asked, their size and header read without joining them.
 */
import { describe, expect, it } from 'vitest';
import { Cdn } from './cdn.js';
import { startMultipartParse } from './multipart.js';
import { UploadedBytes } from './uploaded-bytes.js';

/** A JPEG whose frame header (640x480) comes after `metadata` bytes of APP segments. */
function jpegAfter(metadata: number): Buffer {
  const segments: Buffer[] = [Buffer.from([0xff, 0xd8])];
  for (let left = metadata; left > 0; left -= 60_000) {
    const body = Math.min(left, 60_000);
    const segment = Buffer.alloc(4 + body, 0x20);
    segment.writeUInt16BE(0xffe1, 0);
    segment.writeUInt16BE(body + 2, 2);
    segments.push(segment);
  }
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Buffer.concat([...segments, sof, Buffer.from([0xff, 0xd9])]);
}

function split(bytes: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

describe('UploadedBytes', () => {
  it('tells its size and head without joining its chunks, and joins them once when read whole', () => {
    const bytes = Buffer.alloc(200_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = i % 251;
    const content = new UploadedBytes(split(bytes, 30_000));
    expect(content.size).toBe(200_000);
    expect(content.head().equals(bytes.subarray(0, 64 * 1024))).toBe(true);
    expect(content.pieces()).toHaveLength(7);
    const whole = content.whole();
    expect(whole.equals(bytes)).toBe(true);
    expect(content.whole()).toBe(whole);
    expect(content.pieces()).toEqual([whole]);
  });

  it("keeps a multipart upload's file in the pieces it arrived in until its bytes are read", async () => {
    const payload = Buffer.alloc(300_000, 7);
    const boundary = 'emulator-boundary';
    const raw = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files[0]"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
      payload,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const parse = startMultipartParse(`multipart/form-data; boundary=${boundary}`)!;
    for (const chunk of split(raw, 65_536)) parse.write(chunk);
    parse.end();
    const [file] = (await parse.result).files;
    expect(file?.size).toBe(300_000);
    expect(file?.content.pieces().length).toBeGreaterThan(1);
    expect(file?.bytes.equals(payload)).toBe(true);
  });
});

describe('Cdn.store with uploaded bytes', () => {
  it('reads dimensions from the head, and from the whole file when the header runs past it', () => {
    const cdn = new Cdn('http://cdn.test');
    const small = jpegAfter(1_000);
    const large = jpegAfter(150_000);
    const a = cdn.store('1', 'attachments/9', new UploadedBytes(split(small, 10_000)), 'a.jpg');
    const b = cdn.store('2', 'attachments/9', new UploadedBytes(split(large, 10_000)), 'b.jpg');
    expect([a.width, a.height, a.size, a.content_type]).toEqual([640, 480, small.length, 'image/jpeg']);
    expect([b.width, b.height, b.size]).toEqual([640, 480, large.length]);
    expect(cdn.bytes('2')?.equals(large)).toBe(true);
  });
});
