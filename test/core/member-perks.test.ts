import { describe, expect, it } from 'vitest';
import { givesNothing, grantPerk, multiplyLimit, NO_PERKS, perksOf } from '../../src/core/member-perks.js';
import { PrioritySettings } from '../../src/core/server-settings.js';

const VIP = '100000000000000001';
const ARTIST = '100000000000000002';
const priority = PrioritySettings.parse({
  boosters: { lane: 'priority', quotaMultiplier: 2, moneyMultiplier: 1 },
  roles: [
    { roleId: VIP, lane: 'normal', quotaMultiplier: 3, moneyMultiplier: 5 },
    { roleId: ARTIST, lane: 'normal', quotaMultiplier: 4, moneyMultiplier: 1 },
  ],
});

describe('perksOf', () => {
  it('gives nothing to a member without a perked role who does not boost', () => {
    expect(perksOf(priority, { roleIds: ['999999999999999999'], booster: false })).toEqual(NO_PERKS);
  });

  it('puts boosters in the priority lane when the boosters’ perk says so', () => {
    expect(perksOf(priority, { roleIds: [], booster: true })).toEqual({ lane: 'priority', quotaMultiplier: 2, moneyMultiplier: 1 });
    expect(perksOf({ roles: [] }, { roleIds: [], booster: true })).toEqual(NO_PERKS);
  });

  it('takes the largest multiplier of each kind among the member’s roles and boost, and priority if any gives it', () => {
    expect(perksOf(priority, { roleIds: [VIP, ARTIST] })).toEqual({ lane: 'normal', quotaMultiplier: 4, moneyMultiplier: 5 });
    expect(perksOf(priority, { roleIds: [VIP], booster: true })).toEqual({ lane: 'priority', quotaMultiplier: 3, moneyMultiplier: 5 });
  });
});

describe('settings of the perks', () => {
  it.each([
    {
      roles: Array.from({ length: 11 }, (_, i) => ({
        roleId: `10000000000000000${String(i).padStart(2, '0')}`,
        lane: 'priority',
        quotaMultiplier: 1,
        moneyMultiplier: 1,
      })),
    },
    { roles: [], boosters: { lane: 'priority', quotaMultiplier: 11, moneyMultiplier: 1 } },
    { roles: [], boosters: { lane: 'priority', quotaMultiplier: 1, moneyMultiplier: 0 } },
    { roles: [], boosters: { lane: 'priority', quotaMultiplier: 1.5, moneyMultiplier: 1 } },
    { roles: [], boosters: { lane: 'express', quotaMultiplier: 1, moneyMultiplier: 1 } },
  ])('are bounded: refuses %j', (settings) => {
    expect(PrioritySettings.safeParse(settings).success).toBe(false);
  });

  it('tells a grant that gives nothing', () => {
    expect(givesNothing({ lane: 'normal', quotaMultiplier: 1, moneyMultiplier: 1 })).toBe(true);
    expect(givesNothing({ lane: 'priority', quotaMultiplier: 1, moneyMultiplier: 1 })).toBe(false);
    expect(givesNothing({ lane: 'normal', quotaMultiplier: 1, moneyMultiplier: 2 })).toBe(false);
  });
});

describe('multiplyLimit', () => {
  it('multiplies in whole units, keeps 0 blocking and never passes the largest safe integer', () => {
    expect(multiplyLimit(7, 3)).toBe(21);
    expect(multiplyLimit(0, 10)).toBe(0);
    expect(multiplyLimit(Number.MAX_SAFE_INTEGER, 10)).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('grantPerk', () => {
  const fast = { lane: 'priority', quotaMultiplier: 1, moneyMultiplier: 1 } as const;
  const nothing = { lane: 'normal', quotaMultiplier: 1, moneyMultiplier: 1 } as const;

  it('sets the whole grant of a role, keeping the order roles first got perks in', () => {
    const once = grantPerk(priority, { roleId: VIP, boosters: false }, fast);
    expect(once.roles).toEqual([
      { roleId: VIP, ...fast },
      { roleId: ARTIST, lane: 'normal', quotaMultiplier: 4, moneyMultiplier: 1 },
    ]);
    expect(once.boosters).toEqual(priority.boosters);
    expect(grantPerk({ roles: [] }, { roleId: ARTIST, boosters: false }, fast).roles).toEqual([{ roleId: ARTIST, ...fast }]);
  });

  it('removes a grant that gives nothing, for a role and for boosters', () => {
    expect(grantPerk(priority, { roleId: VIP, boosters: true }, nothing)).toEqual({ roles: [priority.roles[1]] });
    expect(grantPerk({ roles: [] }, { roleId: VIP, boosters: false }, nothing)).toEqual({ roles: [] });
  });

  it('gives boosters and a role the same grant at once', () => {
    expect(grantPerk({ roles: [] }, { roleId: VIP, boosters: true }, fast)).toEqual({ boosters: fast, roles: [{ roleId: VIP, ...fast }] });
  });
});
