/** The waiting line of PostgreSQL's job slots: a wake reaches the longest waiter, with the budget to pass it on. */
import { describe, expect, it } from 'vitest';
import { SlotWakeups } from '../../src/storage/slot-wakeups.js';

const HOUR = 3_600_000;
const never = () => new AbortController().signal;

describe('slot wakeups', () => {
  it('wakes the longest waiter first, with a budget of every waiter by default', async () => {
    const wakeups = new SlotWakeups();
    const first = wakeups.wait(HOUR, never());
    const second = wakeups.wait(HOUR, never());
    expect(wakeups.size).toBe(2);
    wakeups.wake();
    await expect(first).resolves.toBe(2);
    expect(wakeups.size).toBe(1);
    wakeups.wake(1);
    await expect(second).resolves.toBe(1);
  });

  it('resolves 0 after its pause, and wakes nobody with a budget of 0', async () => {
    const wakeups = new SlotWakeups();
    const waiting = wakeups.wait(1, never());
    wakeups.wake(0);
    await expect(waiting).resolves.toBe(0);
    expect(wakeups.size).toBe(0);
  });

  it('passes on a wake that reached a waiter whose wait was aborted', async () => {
    const wakeups = new SlotWakeups();
    const controller = new AbortController();
    const aborted = wakeups.wait(HOUR, controller.signal);
    const next = wakeups.wait(HOUR, never());
    // Woken, then aborted before it could try: the next waiter gets the wake instead.
    wakeups.wake();
    controller.abort();
    await expect(aborted).resolves.toBe(0);
    await expect(next).resolves.toBe(2);
  });
});
