/**
 * /show's autocomplete choices: the prompt on one line and the day it was made, written as the member's language
 * writes a date, within Discord's 100 characters however long the prompt.
 */
import { describe, expect, it } from 'vitest';
import { choiceName } from '../../../src/discord/views/show-card.js';
import { DISCORD_LOCALES } from '../../../src/i18n/locales.js';

const entry = (prompt: string) => ({ prompt, jobId: 'job-1', createdAt: Date.parse('2026-11-25T22:30:00Z') });

describe('a /show choice', () => {
  it('writes the day in the member’s language, in UTC', () => {
    expect(choiceName(entry('a red fox'), 'en-US')).toBe('a red fox · Nov 25, 2026');
    expect(choiceName(entry('a red fox'), 'ja')).toBe('a red fox · 2026/11/25');
    expect(choiceName(entry('a red fox'), 'de')).toBe('a red fox · 25.11.2026');
  });

  it.each(['en-US', ...Object.values(DISCORD_LOCALES).flat()])('stays within 100 characters in %s with a long prompt on one line', (locale) => {
    const name = choiceName(entry('a very long prompt\nwith lines '.repeat(20)), locale);
    expect(name.length).toBeLessThanOrEqual(100);
    expect(name).not.toContain('\n');
  });
});
