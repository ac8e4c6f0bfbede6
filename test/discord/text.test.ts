import { describe, expect, it } from 'vitest';
import { shortenForDiscord } from '../../src/discord/text.js';

describe('shortenForDiscord', () => {
  it.each([
    ['short', 10, 'short'],
    ['exactly10!', 10, 'exactly10!'],
    ['hello world', 8, 'hello w…'],
    ['hello world', 7, 'hello…'],
    ['abc', 0, ''],
    ['ab😀cd', 4, 'ab…'],
    ['ab😀cd', 5, 'ab😀…'],
  ] as const)('GIVEN %j and max %i THEN %j', (text, max, expected) => {
    expect(shortenForDiscord(text, max)).toBe(expected);
  });

  it('never leaves a lone surrogate, whatever the cut position', () => {
    const text = '😀'.repeat(20);
    for (let max = 1; max < text.length; max++) {
      const out = shortenForDiscord(text, max);
      expect(out.length).toBeLessThanOrEqual(max);
      // A lone surrogate does not survive a UTF-8 round trip (it becomes U+FFFD).
      expect(Buffer.from(out, 'utf8').toString('utf8')).toBe(out);
    }
  });
});
