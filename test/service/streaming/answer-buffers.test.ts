/**
 * AnswerBufferPool: Buffers come back only through a lease's release, are never held by two leases at once, are
 * not spent on much smaller answers, and the pool keeps no more than its cap while unused.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AnswerBufferPool } from '../../../src/service/streaming/answer-buffers.js';
import { checkImage } from '../../../src/gateway/decode.js';

const MB = 1024 * 1024;

describe('AnswerBufferPool', () => {
  it('gives a Buffer of at least the size asked for, and separate memory to separate takes', () => {
    const pool = new AnswerBufferPool(64 * MB);
    const lease = pool.lease();
    const a = lease.take(MB);
    const b = lease.take(MB);
    expect(a.length).toBeGreaterThanOrEqual(MB);
    expect(b.buffer).not.toBe(a.buffer);
  });

  it('reuses released memory for an answer of similar size, once, and not for one under half its size', () => {
    const pool = new AnswerBufferPool(64 * MB);
    const first = pool.lease();
    const buffer = first.take(10 * MB);
    first.release();
    first.release(); // a second release must not put it in the pool twice
    expect(pool.lease().take(4 * MB).buffer).not.toBe(buffer.buffer);
    expect(pool.lease().take(9 * MB).buffer).toBe(buffer.buffer);
    expect(pool.lease().take(9 * MB).buffer).not.toBe(buffer.buffer);
    expect(pool.idleBytes).toBe(0);
  });

  it('picks the smallest free Buffer that fits', () => {
    const pool = new AnswerBufferPool(64 * MB);
    const lease = pool.lease();
    const large = lease.take(12 * MB);
    const small = lease.take(7 * MB);
    lease.release();
    expect(pool.lease().take(6 * MB).buffer).toBe(small.buffer);
    expect(pool.lease().take(6 * MB).buffer).toBe(large.buffer);
  });

  it('keeps at most its cap while unused, the largest Buffers first', () => {
    const pool = new AnswerBufferPool(10 * MB);
    const lease = pool.lease();
    const sizes = [6 * MB, 3 * MB, 2 * MB];
    const [six, three] = sizes.map((size) => lease.take(size));
    lease.release();
    expect(pool.idleBytes).toBe(9 * MB);
    expect(pool.lease().take(3 * MB).buffer).toBe(three?.buffer);
    expect(pool.lease().take(6 * MB).buffer).toBe(six?.buffer);
  });

  it('does not take back what is taken after the release', () => {
    const pool = new AnswerBufferPool(64 * MB);
    const lease = pool.lease();
    lease.release();
    lease.take(MB);
    lease.release();
    expect(pool.idleBytes).toBe(0);
  });
});

describe('a reused Buffer and sharp', () => {
  it('reads the new image, not a cached result for the same memory (libvips caches operations by their arguments)', async () => {
    // Uncompressed PNGs of one size have one length, so the second lands at exactly the first one's address and length.
    const png = (r: number, g: number, b: number) =>
      sharp({ create: { width: 64, height: 48, channels: 3, background: { r, g, b } } })
        .png({ compressionLevel: 0 })
        .toBuffer();
    const [red, blue] = await Promise.all([png(255, 0, 0), png(0, 0, 255)]);
    expect(blue.length).toBe(red.length);
    const pool = new AnswerBufferPool(MB);
    const first = pool.lease();
    const memory = first.take(red.length).subarray(0, red.length);
    red.copy(memory);
    expect((await checkImage(memory, 'png', 50_000_000)).width).toBe(64);
    expect([...(await sharp(memory).raw().toBuffer()).subarray(0, 3)]).toEqual([255, 0, 0]);
    first.release();
    const reused = pool.lease().take(blue.length).subarray(0, blue.length);
    expect(reused.buffer).toBe(memory.buffer);
    blue.copy(reused);
    expect([...(await sharp(reused).raw().toBuffer()).subarray(0, 3)]).toEqual([0, 0, 255]);
    expect([...(await sharp(reused).resize(16).raw().toBuffer()).subarray(0, 3)]).toEqual([0, 0, 255]);
  });
});
