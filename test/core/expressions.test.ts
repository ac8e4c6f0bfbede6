import { describe, expect, it } from 'vitest';
import { checkExpressionWords, expressionRefusal, suggestedName } from '../../src/core/expressions.js';

describe('the words of an emoji or a sticker', () => {
  it.each([
    ['lighthouse', true],
    ['Light_House_2', true],
    ['  padded  ', true],
    ['x', false],
    ['a'.repeat(32), true],
    ['a'.repeat(33), false],
    ['has space', false],
    ['émoji', false],
    ['dash-ed', false],
  ])('an emoji named %j is %s', (name, ok) => {
    expect(checkExpressionWords('emoji', { name }).ok).toBe(ok);
  });

  it('names the first word of a sticker that breaks Discord’s rules', () => {
    const words = { name: 'Lighthouse', tags: 'lighthouse', description: '' };
    expect(checkExpressionWords('sticker', words)).toEqual({ ok: true, words });
    expect(checkExpressionWords('sticker', { ...words, name: 'x' })).toEqual({ ok: false, problem: 'stickerName' });
    expect(checkExpressionWords('sticker', { ...words, name: 'x'.repeat(31) })).toEqual({ ok: false, problem: 'stickerName' });
    expect(checkExpressionWords('sticker', { ...words, tags: ' ' })).toEqual({ ok: false, problem: 'stickerTags' });
    expect(checkExpressionWords('sticker', { ...words, description: 'x' })).toEqual({ ok: false, problem: 'stickerDescription' });
    expect(checkExpressionWords('sticker', { ...words, description: 'x'.repeat(101) })).toEqual({ ok: false, problem: 'stickerDescription' });
    expect(checkExpressionWords('sticker', { ...words, description: ' At dusk ' })).toEqual({ ok: true, words: { ...words, description: 'At dusk' } });
  });

  it('suggests a name from the prompt that the rules accept', () => {
    expect(suggestedName('A lighthouse at dusk, oil painting', 'emoji')).toBe('a_lighthouse_at_dusk_oil');
    expect(suggestedName('Crème brûlée', 'emoji')).toBe('creme_brulee');
    expect(suggestedName('日本の城', 'emoji')).toBe('imagine');
    expect(suggestedName('x', 'sticker')).toBe('imagine');
    expect(suggestedName('supercalifragilisticexpialidocious-and-more', 'sticker')).toBe('supercalifragilisticexpialidoc');
    for (const prompt of ['A lighthouse at dusk', 'Crème brûlée', '日本の城', 'x'.repeat(100)])
      for (const kind of ['emoji', 'sticker'] as const) expect(checkExpressionWords(kind, { name: suggestedName(prompt, kind), tags: 'tag' }).ok).toBe(true);
  });
});

describe('where an emoji or sticker may be added', () => {
  const everything = { inServer: true, botInServer: true, memberCanCreate: true, botCanCreate: true };

  it('needs a server with the bot in it, and Create Expressions for the member and for the bot, naming the first missing', () => {
    expect(expressionRefusal(everything)).toBeUndefined();
    expect(expressionRefusal({ ...everything, inServer: false, botInServer: false })).toBe('expression.notInServer');
    expect(expressionRefusal({ ...everything, botInServer: false })).toBe('expression.botNotInServer');
    expect(expressionRefusal({ ...everything, memberCanCreate: false, botCanCreate: false })).toBe('expression.memberPermission');
    expect(expressionRefusal({ ...everything, botCanCreate: false })).toBe('expression.botPermission');
  });
});
