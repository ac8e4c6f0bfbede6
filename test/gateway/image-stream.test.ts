/**
 * The image call as an event stream (src/gateway/image-stream.ts): reports become events in order, the two
 * requests wait for the caller's answer (or their default once the caller moves on), a failure is thrown after the
 * events before it, and leaving early aborts the call and waits for it to settle.
 */
import { describe, expect, it } from 'vitest';
import { imageStream, type CallEvents } from '../../src/gateway/image-stream.js';
import type { ImageResult } from '../../src/core/images.js';
import type { ImageStreamEvent } from '../../src/ports/image-gateway.js';

const result: ImageResult = { images: [], model: 'm', droppedParams: [] };

async function types(stream: AsyncIterable<ImageStreamEvent>): Promise<string[]> {
  const seen: string[] = [];
  for await (const event of stream) seen.push(event.type);
  return seen;
}

describe('imageStream', () => {
  it('sends nothing before the iteration starts, then yields the reports in order and completes', async () => {
    let started = false;
    const stream = imageStream(async (events) => {
      started = true;
      events.taskStatus('queued');
      events.partial({ index: 0, bytes: Buffer.from('p'), format: 'png' });
      events.data(0, Buffer.from('a'));
      events.end(0, Buffer.from('ab'));
      return result;
    });
    await Promise.resolve();
    expect(started).toBe(false);
    expect(await types(stream)).toEqual(['task_status', 'partial_image', 'image_data', 'image_end', 'completed']);
  });

  it('waits for the answers to admission and buffer, and applies their defaults when the caller moves on', async () => {
    const answers: unknown[] = [];
    const run = async (events: CallEvents) => {
      answers.push(await events.admit(10), await events.buffer(4));
      return result;
    };
    const supplied = Buffer.alloc(4);
    for await (const event of imageStream(run)) {
      if (event.type === 'admission') event.answer(Promise.resolve(7));
      if (event.type === 'buffer') event.answer(supplied);
    }
    expect(answers).toEqual([7, supplied]);
    answers.length = 0;
    expect(await types(imageStream(run))).toEqual(['admission', 'buffer', 'completed']);
    expect(answers).toEqual([Infinity, undefined]);
  });

  it('lets a refused admission fail the call, after the events before it', async () => {
    const refused = new Error('no room');
    const seen: string[] = [];
    const stream = imageStream(async (events) => {
      events.taskStatus('generating');
      await events.admit(undefined);
      return result;
    });
    const iterate = async () => {
      for await (const event of stream) {
        seen.push(event.type);
        if (event.type === 'admission') event.answer(Promise.reject(refused));
      }
    };
    await expect(iterate()).rejects.toBe(refused);
    expect(seen).toEqual(['task_status', 'admission']);
  });

  it('aborts the call when the caller leaves early, and waits for it to settle', async () => {
    const order: string[] = [];
    const stream = imageStream(
      (events, signal) =>
        new Promise<ImageResult>((_resolve, reject) => {
          events.data(0, Buffer.from('a'));
          signal.addEventListener('abort', () => {
            order.push('aborted');
            setImmediate(() => {
              order.push('settled');
              reject(new Error('cancelled'));
            });
          });
        }),
    );
    for await (const event of stream) {
      expect(event.type).toBe('image_data');
      break;
    }
    order.push('left');
    expect(order).toEqual(['aborted', 'settled', 'left']);
  });

  it("passes the caller's abort on to the call", async () => {
    const controller = new AbortController();
    const stream = imageStream(
      (_events, signal) => new Promise<ImageResult>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error))),
      controller.signal,
    );
    const reason = new Error('stop');
    const iterating = types(stream);
    controller.abort(reason);
    await expect(iterating).rejects.toBe(reason);
  });
});
