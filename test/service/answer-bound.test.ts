import { describe, expect, it } from 'vitest';
import { unknownAnswerBytes } from '../../src/service/answer-bound.js';

describe('unknownAnswerBytes', () => {
  it('counts each image as its pixels uncompressed in base64, once more per partial image, with slack', () => {
    const one = unknownAnswerBytes({ size: { width: 1024, height: 1024 }, n: 1 }, 0);
    expect(one).toBeGreaterThan((1024 * 1024 * 4 * 4) / 3);
    expect(one).toBeLessThan((1024 * 1024 * 4 * 4) / 3 + 256 * 1024);
    expect(unknownAnswerBytes({ size: { width: 1024, height: 1024 }, n: 3 }, 0)).toBeGreaterThan(3 * (one - 128 * 1024));
    expect(unknownAnswerBytes({ size: { width: 1024, height: 1024 }, n: 1 }, 2)).toBeGreaterThan(3 * (one - 128 * 1024));
  });

  it('takes gpt-image-2’s largest regular size for auto or no size', () => {
    expect(unknownAnswerBytes({ size: 'auto' }, 0)).toBe(unknownAnswerBytes({ size: { width: 2560, height: 1440 } }, 0));
    expect(unknownAnswerBytes({}, 1)).toBe(unknownAnswerBytes({ size: { width: 2560, height: 1440 }, n: 1 }, 1));
  });
});
