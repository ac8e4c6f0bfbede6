/**
 * Prompt help's pure parts: reading a describe answer, and where prompt help may run (the server's switch and its
 * channel rules).
 */
import { describe, expect, it } from 'vitest';
import { UserFacingError } from '../../src/errors.js';
import { parseDescription } from '../../src/service/prompt-help.js';
import { checkPromptHelp, ServerSettings } from '../../src/service/server-settings.js';

const CHANNEL = '100000000000000001';
const OTHER = '100000000000000002';

describe('parseDescription', () => {
  it('reads the description line and up to four numbered prompts, without quotes', () => {
    const parsed = parseDescription('A cat.\n\n1. "a cat, oil"\n2) a cat, ink\n- a cat, photo\n4. a cat, clay\n5. a fifth');
    expect(parsed).toEqual({ description: 'A cat.', prompts: ['a cat, oil', 'a cat, ink', 'a cat, photo', 'a cat, clay'] });
  });

  it('finds nothing in an answer without prompts', () => {
    expect(parseDescription('I cannot see an image.')).toBeUndefined();
  });
});

describe('checkPromptHelp', () => {
  const identifier = (run: () => void) => {
    try {
      run();
      return undefined;
    } catch (err) {
      return err instanceof UserFacingError ? err.identifier : String(err);
    }
  };

  it('allows it by default, and follows the channel rules and the server switch', () => {
    expect(identifier(() => checkPromptHelp(ServerSettings.parse({}), CHANNEL))).toBeUndefined();
    const only = ServerSettings.parse({ channels: { mode: 'only', ids: [CHANNEL] } });
    expect(identifier(() => checkPromptHelp(only, CHANNEL))).toBeUndefined();
    expect(identifier(() => checkPromptHelp(only, OTHER))).toBe('settings.channelOnly');
    expect(identifier(() => checkPromptHelp(ServerSettings.parse({ promptHelp: false }), CHANNEL))).toBe('promptHelp.off');
  });
});
