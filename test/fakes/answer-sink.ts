/**
 * An AnswerSink for gateway tests: each part defaults to doing nothing (a new Buffer for `buffer`).
 */
import type { AnswerSink } from '../../src/ports/image-gateway.js';

export function answerSink(parts: Partial<AnswerSink> = {}): AnswerSink {
  return {
    buffer: (bytes) => Buffer.alloc(bytes),
    data: () => undefined,
    end: () => undefined,
    ...parts,
  };
}
