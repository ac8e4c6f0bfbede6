import { describe, expect, it } from 'vitest';
import { imageFileName, shortenForDiscord } from '../../src/service/file-names.js';

describe('imageFileName', () => {
  it.each([
    ['a cat in a spacesuit', 0, 1, 'png', 'a-cat-in-a-spacesuit-1.png'],
    ['A Cat, in a SPACESUIT!', 1, 2, 'webp', 'a-cat-in-a-spacesuit-2.webp'],
    ['one two three four five six seven eight', 0, 1, 'png', 'one-two-three-four-five-six-1.png'],
    ['Café crème brûlée', 0, 1, 'jpeg', 'cafe-creme-brulee-1.jpg'],
    ['猫が宇宙服を着ている', 0, 1, 'png', 'image-1.png'],
    ['   ', 0, 1, 'png', 'image-1.png'],
    ['🚀 rocket', 0, 1, 'png', 'rocket-1.png'],
    ['../../etc/passwd', 0, 1, 'png', 'etc-passwd-1.png'],
    ['fox', 0, 10, 'png', 'fox-01.png'],
    ['fox', 9, 10, 'png', 'fox-10.png'],
  ] as const)('GIVEN %j (image %i of %i, %s) THEN %s', (prompt, index, total, format, expected) => {
    expect(imageFileName(prompt, index, total, format)).toBe(expected);
  });

  it('keeps long prompts to about 60 characters and only safe characters', () => {
    const name = imageFileName(`${'supercalifragilistic'.repeat(5)} and more words`, 0, 1, 'webp');
    expect(name.length).toBeLessThanOrEqual(60);
    expect(name).toMatch(/^[a-z0-9-]+\.webp$/);
  });

  it('stops at a word boundary when the next word would make the slug too long', () => {
    const name = imageFileName('aaaaaaaaaaaaaaaaaaaa bbbbbbbbbbbbbbbbbbbb cccccccccccccccccccc', 0, 1, 'png');
    expect(name).toBe('aaaaaaaaaaaaaaaaaaaa-bbbbbbbbbbbbbbbbbbbb-1.png');
  });
});

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
