import { describe, expect, it } from 'vitest';
import { mostGenerous, pickEffectiveLimit } from '../../src/core/quota-precedence.js';

const defaults = { limit: 5, period: 'day' } as const;

describe('pickEffectiveLimit', () => {
  it('prefers member over roles over server over defaults', () => {
    const member = { limit: 0, period: 'day' } as const;
    const role = { limit: 50, period: 'day' } as const;
    const server = { limit: 20, period: 'week' } as const;
    expect(pickEffectiveLimit({ member, roles: [role], server, defaults })).toEqual({ ...member, source: 'member' });
    expect(pickEffectiveLimit({ roles: [role], server, defaults })).toEqual({ ...role, source: 'role' });
    expect(pickEffectiveLimit({ roles: [], server, defaults })).toEqual({ ...server, source: 'server' });
    expect(pickEffectiveLimit({ roles: [], defaults })).toEqual({ ...defaults, source: 'default' });
  });

  it('multiplies the limit that wins by the member’s perk multiplier, whichever level it came from', () => {
    const role = { limit: 50, period: 'day' } as const;
    const server = { limit: 20, period: 'week' } as const;
    expect(pickEffectiveLimit({ member: { limit: 4, period: 'day' }, roles: [role], server, defaults }, 3)).toEqual({
      limit: 12,
      period: 'day',
      source: 'member',
    });
    expect(pickEffectiveLimit({ roles: [role], server, defaults }, 2)).toEqual({ limit: 100, period: 'day', source: 'role' });
    expect(pickEffectiveLimit({ roles: [], server, defaults }, 2)).toEqual({ limit: 40, period: 'week', source: 'server' });
    expect(pickEffectiveLimit({ roles: [], defaults }, 10)).toEqual({ limit: 50, period: 'day', source: 'default' });
    // A block stays a block.
    expect(pickEffectiveLimit({ member: { limit: 0, period: 'day' }, roles: [], defaults }, 10)).toMatchObject({ limit: 0 });
  });
});

describe('mostGenerous', () => {
  it('compares limits of different periods by their daily rate', () => {
    expect(
      mostGenerous([
        { limit: 50, period: 'month' },
        { limit: 10, period: 'day' },
      ]),
    ).toEqual({ limit: 10, period: 'day' });
    expect(
      mostGenerous([
        { limit: 100, period: 'week' },
        { limit: 10, period: 'day' },
      ]),
    ).toEqual({ limit: 100, period: 'week' });
  });

  it('breaks equal rates by the higher limit, whatever the order', () => {
    const a = { limit: 7, period: 'week' } as const;
    const b = { limit: 1, period: 'day' } as const;
    expect(mostGenerous([a, b])).toEqual(a);
    expect(mostGenerous([b, a])).toEqual(a);
  });
});
