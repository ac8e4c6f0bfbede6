import { describe, expect, it } from 'vitest';
import { afterStart, laneMayStart, nextLane } from '../../src/core/lane-turns.js';

describe('the lanes’ turns', () => {
  const turns = (run: number) => ({ weight: 3, run });

  it('serves the priority lane first, and the normal lane once the priority lane has had its weight', () => {
    expect(nextLane(turns(0), true, true)).toBe('priority');
    expect(nextLane(turns(2), true, true)).toBe('priority');
    expect(nextLane(turns(3), true, true)).toBe('normal');
    expect(nextLane(turns(3), true, false)).toBe('priority');
    expect(nextLane(turns(0), false, true)).toBe('normal');
    expect(nextLane(turns(0), false, false)).toBeUndefined();
  });

  it('counts priority starts only while the normal lane waits, and starts over after a normal one', () => {
    expect(afterStart(turns(1), 'priority', true)).toEqual(turns(2));
    expect(afterStart(turns(2), 'priority', false)).toEqual(turns(0));
    expect(afterStart(turns(3), 'normal', true)).toEqual(turns(0));
  });

  it('tells a waiting job of either lane whether it may start', () => {
    expect(laneMayStart(turns(0), 'priority', true)).toBe(true);
    expect(laneMayStart(turns(3), 'priority', true)).toBe(false);
    expect(laneMayStart(turns(3), 'priority', false)).toBe(true);
    expect(laneMayStart(turns(0), 'normal', true)).toBe(false);
    expect(laneMayStart(turns(3), 'normal', true)).toBe(true);
    expect(laneMayStart(turns(0), 'normal', false)).toBe(true);
  });
});
