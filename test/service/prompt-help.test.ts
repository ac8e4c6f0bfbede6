/**
 * Prompt help's pure parts: reading a describe answer, and where prompt help may run (the server's switch and its
 * channel rules).
 */
import { describe, expect, it } from 'vitest';
import { UserFacingError } from '../../src/errors.js';
import { parseDescription, PromptHelp, visionTokens } from '../../src/service/prompt-help.js';
import { silentLogger } from '../fakes/memory-logger.js';
import { checkPromptHelp } from '../../src/service/server-settings.js';
import { ServerSettings } from '../../src/core/server-settings.js';

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

describe('the chat calls prompt help would make, for their estimates', () => {
  const help = (models: { promptModel?: string; visionModel?: string }) =>
    new PromptHelp({
      chat: { complete: () => Promise.reject(new Error('not called')) },
      promptModel: undefined,
      visionModel: undefined,
      maxTokens: 400,
      logger: silentLogger,
      ...models,
    });

  it('describe: the vision model, the instruction, a 2048 px image in tiles, the longest answer; none while off', () => {
    const call = help({ visionModel: 'gpt-4o-mini' }).describeCall(2048);
    expect(call).toMatchObject({ model: 'gpt-4o-mini', imageTokens: visionTokens(2048), maxOutputTokens: 400 });
    expect(call?.inputChars).toBeGreaterThan(0);
    expect(help({}).describeCall(2048)).toBeUndefined();
  });

  it('enhance: the prompt model, the instruction and the prompt, the longest answer; none while off', () => {
    const short = help({ promptModel: 'gpt-4o-mini' }).enhanceCall('a cat');
    const long = help({ promptModel: 'gpt-4o-mini' }).enhanceCall('a cat'.repeat(100));
    expect(short).toMatchObject({ model: 'gpt-4o-mini', imageTokens: 0, maxOutputTokens: 400 });
    expect((long?.inputChars ?? 0) - (short?.inputChars ?? 0)).toBe(495);
    expect(help({}).enhanceCall('a cat')).toBeUndefined();
  });
});
