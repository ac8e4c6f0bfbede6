import { describe, expect, it } from 'vitest';
import { imageFileName } from '../../src/discord/file-names.js';

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
