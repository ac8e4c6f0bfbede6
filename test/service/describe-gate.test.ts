/**
 * Who may describe now (issue 28): one describe per member at a time, a cooldown from the start of the last, and a
 * gate that holds nobody past their cooldown (its size is bounded by the members describing within one cooldown).
 */
import { describe, expect, it } from 'vitest';
import { DescribeGate } from '../../src/service/describe-gate.js';
import { ManualClock } from '../fakes/manual-clock.js';

/** What `enter` threw, or undefined. */
function thrown(enter: () => unknown): unknown {
  try {
    enter();
    return undefined;
  } catch (err) {
    return err;
  }
}
const refusal = (identifier: string): unknown => expect.objectContaining({ name: 'UserFacingError', identifier }) as unknown;

describe('DescribeGate', () => {
  it('lets a member in once at a time, then again only after the cooldown, counted from the start', () => {
    const clock = new ManualClock(0);
    const gate = new DescribeGate({ cooldownMs: 1_000, clock });
    const leave = gate.enter('u1');
    expect(thrown(() => gate.enter('u1'))).toEqual(refusal('describe.running'));
    const other = gate.enter('u2');
    clock.advance(400);
    leave();
    leave();
    expect(thrown(() => gate.enter('u1'))).toEqual(refusal('describe.cooldown'));
    clock.advance(600);
    other();
    gate.enter('u1')();
  });

  it('forgets members whose cooldown is over', () => {
    const clock = new ManualClock(0);
    const gate = new DescribeGate({ cooldownMs: 1_000, clock });
    for (let i = 0; i < 100; i += 1) gate.enter(`u${i}`)();
    expect(gate.size).toBe(100);
    clock.advance(1_000);
    gate.enter('late')();
    expect(gate.size).toBe(1);
  });

  it('holds no one after their describe with no cooldown', () => {
    const gate = new DescribeGate({ cooldownMs: 0, clock: new ManualClock(0) });
    gate.enter('u1')();
    gate.enter('u1')();
    expect(gate.size).toBe(0);
  });
});
