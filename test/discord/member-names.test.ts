import { describe, expect, it, vi } from 'vitest';
import { displayNames, type NamePlaces } from '../../src/discord/member-names.js';

/** The client's and guild's parts displayNames reads: cached members with nicknames, and users fetched by id. */
function where(cached: Record<string, string>, users: Record<string, string>) {
  const fetch = vi.fn((id: string) => {
    const displayName = users[id];
    return displayName === undefined ? Promise.reject(new Error('Unknown User')) : Promise.resolve({ displayName });
  });
  const members = new Map(Object.entries(cached).map(([id, displayName]) => [id, { displayName }]));
  const places: NamePlaces = { client: { users: { fetch } }, guild: { members: { cache: members } } };
  return { fetch, ...places };
}

describe('displayNames', () => {
  it("takes a seen member's server nickname, fetches anyone else's display name, and leaves out who cannot be found", async () => {
    const w = where({ '1': 'Ada (mod)' }, { '2': 'Bo', '1': 'ada_account' });
    expect(await displayNames(w, ['1', '2', '3'])).toEqual(
      new Map([
        ['1', 'Ada (mod)'],
        ['2', 'Bo'],
      ]),
    );
    expect(w.fetch.mock.calls.map(([id]) => id)).toEqual(['2', '3']);
  });

  it('fetches every name outside a server', async () => {
    const w = where({}, { '2': 'Bo' });
    expect(await displayNames({ client: w.client, guild: null }, ['2'])).toEqual(new Map([['2', 'Bo']]));
  });
});
