/**
 * The custom-id families (issue 30): each builds the ids its views render and parses them back into typed fields;
 * anything else (another family's id, a wrong field, an extra part) does not parse, and the router answers it as an
 * expired button instead of a handler splitting it by hand.
 */
import { describe, expect, it } from 'vitest';
import { ACTIONS, CUSTOM_IDS, pickedImage } from '../../src/discord/custom-ids.js';
import { component } from '../../src/commands/command.js';

const rest = (id: string) => id.slice(id.indexOf(':') + 1);

describe('custom-id families', () => {
  it('build ids that parse back to the same fields, numbers as numbers', () => {
    const action = CUSTOM_IDS.action.build({ jobId: 'AbC_12-x', code: ACTIONS.zoom2 });
    expect(action).toBe('act:AbC_12-x:z2');
    expect(CUSTOM_IDS.action.parse(rest(action))).toEqual({ jobId: 'AbC_12-x', code: 'z2' });
    expect(CUSTOM_IDS.action.parse('job1:u3')).toEqual({ jobId: 'job1', code: 'u3' });
    expect(CUSTOM_IDS.historyPage.parse(rest(CUSTOM_IDS.historyPage.build({ page: 2, asOf: 1_795_608_000_000 })))).toEqual({
      page: 2,
      asOf: 1_795_608_000_000,
    });
    expect(CUSTOM_IDS.describe.parse('d1:3')).toEqual({ id: 'd1', index: 3 });
    const user = '12345678901234567890';
    const page = CUSTOM_IDS.favoritesPage.build({ user, page: -1, asOf: 1_795_608_000_000 });
    expect(CUSTOM_IDS.favoritesPage.parse(rest(page))).toEqual({ user, page: -1, asOf: 1_795_608_000_000 });
    // The longest job id a result can have still fits a Remove button.
    const remove = CUSTOM_IDS.favoriteRemove.build({ user, jobId: 'j'.repeat(64), page: 9_999 });
    expect(remove.length).toBeLessThanOrEqual(100);
    expect(CUSTOM_IDS.favoriteRemove.parse(rest(remove))).toEqual({ user, jobId: 'j'.repeat(64), page: 9_999 });
    expect(CUSTOM_IDS.favoriteRemove.parse('alice:job1:0')).toBeUndefined();
  });

  it('refuse what is not theirs: unknown action codes, missing or extra parts, separators or spaces inside a field', () => {
    expect(CUSTOM_IDS.action.parse('job1:zz')).toBeUndefined();
    expect(CUSTOM_IDS.action.parse('job1')).toBeUndefined();
    expect(CUSTOM_IDS.action.parse('job1:z2:extra')).toBeUndefined();
    expect(CUSTOM_IDS.reroll.parse('job 1')).toBeUndefined();
    expect(CUSTOM_IDS.describe.parse('d1:x')).toBeUndefined();
    expect(CUSTOM_IDS.historyPage.parse('1e3:5')).toBeUndefined();
  });

  it('have one prefix each, and ids within Discord’s 100 characters', () => {
    const prefixes = Object.values(CUSTOM_IDS).map((f) => f.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    expect(() => CUSTOM_IDS.reroll.build({ jobId: 'x'.repeat(100) })).toThrow(RangeError);
  });

  it('name the picked image of U buttons', () => {
    expect(pickedImage('u0')).toBe(0);
    expect(pickedImage('u9')).toBe(9);
    expect(pickedImage(ACTIONS.varySubtle)).toBeUndefined();
  });

  it('give handlers parsed fields, and answer an id that does not parse as an expired button', async () => {
    const seen: unknown[] = [];
    const handler = component(CUSTOM_IDS.describe, {
      button: (_interaction, args) => {
        seen.push(args);
        return Promise.resolve();
      },
    });
    expect(handler.prefix).toBe('descimg');
    await handler.button?.({} as never, 'd1:2', {} as never);
    expect(seen).toEqual([{ id: 'd1', index: 2 }]);
    await expect(handler.button?.({} as never, 'd1:two', {} as never)).rejects.toMatchObject({ identifier: 'button.expired' });
    expect(handler.modal).toBeUndefined();
  });
});
