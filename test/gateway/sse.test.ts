import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readImageStream, type StreamOptions } from '../../src/gateway/sse.js';
import type { PartialImage } from '../../src/core/images.js';
import { makeImage, failure } from './fixtures.js';

const chunks = (...parts: string[]): Readable => Readable.from(parts.map((p) => Buffer.from(p)));
const options = (extra: Partial<StreamOptions> = {}): StreamOptions => ({ maxBytes: 10_000_000, expected: 1, ...extra });

describe('readImageStream', () => {
  it('dispatches on the JSON type, with CRLF lines, comments and events split mid-character', async () => {
    const b64 = (await makeImage('png')).toString('base64');
    const partial = JSON.stringify({ type: 'image_edit.partial_image', b64_json: b64, partial_image_index: 0 });
    const done = JSON.stringify({ type: 'image_edit.completed', b64_json: b64, usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 }, note: '画像' });
    const wire = `: PING\r\n\r\nevent: whatever\r\ndata: ${partial}\r\n\r\ndata: ${done}\r\n\r\ndata: [DONE]\r\n\r\n`;
    const bytes = Buffer.from(wire);
    const cut = bytes.indexOf(Buffer.from('画')) + 1;
    const partials: PartialImage[] = [];
    const outcome = await readImageStream(Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]), options({ onPartial: (p) => partials.push(p) }));
    expect(partials.map((p) => [p.index, p.format])).toEqual([[0, 'png']]);
    expect(outcome.items).toEqual([{ b64_json: b64, url: undefined }]);
    expect(outcome.usage).toEqual({ input_tokens: 1, output_tokens: 2, total_tokens: 3 });
  });

  it('stops reading once the expected images have completed', async () => {
    const b64 = (await makeImage('png')).toString('base64');
    const completed = `data: ${JSON.stringify({ type: 'image_generation.completed', b64_json: b64 })}\n\n`;
    const outcome = await readImageStream(chunks(completed, 'data: {not json}\n\n'), options());
    expect(outcome.items).toHaveLength(1);
  });

  it('keeps going when a partial image is broken', async () => {
    const b64 = (await makeImage('png')).toString('base64');
    const problems: unknown[] = [];
    const outcome = await readImageStream(
      chunks(
        `data: ${JSON.stringify({ type: 'image_generation.partial_image', b64_json: 'aGVsbG8=' })}\n\n`,
        `data: ${JSON.stringify({ type: 'image_generation.completed', b64_json: b64 })}\n\n`,
      ),
      options({ onPartial: () => undefined, onPartialProblem: (e) => problems.push(e) }),
    );
    expect(problems).toHaveLength(1);
    expect(outcome.items).toHaveLength(1);
  });

  it.each([
    ['an event named error', 'event: error\ndata: {"error":{"message":"Invalid token","type":"new_api_error"}}\n\n', 'invalid_key'],
    [
      'a type of error',
      'data: {"type":"error","error":{"type":"image_generation_server_error","code":"image_generation_failed","message":"failed"}}\n\n',
      'gateway_failure',
    ],
    ['data with an error key', 'data: {"error":{"code":"moderation_blocked","message":"rejected"}}\n\n', 'content_rejected'],
  ])('turns %s into a classified error', async (_name, wire, category) => {
    expect((await failure(readImageStream(chunks(wire), options()))).category).toBe(category);
  });

  it('fails on malformed events, a stream without a completed image, and a stream beyond the cap', async () => {
    expect((await failure(readImageStream(chunks('data: {oops\n\n'), options()))).code).toBe('malformed_event');
    expect((await failure(readImageStream(chunks(': PING\n\n', 'data: [DONE]\n\n'), options()))).code).toBe('stream_incomplete');
    expect((await failure(readImageStream(chunks(': PING\n\n', `data: ${'x'.repeat(200)}`), options({ maxBytes: 100 })))).code).toBe('response_too_large');
  });
});
