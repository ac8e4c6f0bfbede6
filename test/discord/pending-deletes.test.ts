/**
 * PendingDeletes: a Delete click is kept for its confirmation, only for the member who clicked, at most once, for
 * less than its token's 15 minutes, and never more than 500 at once.
 */
import { describe, expect, it } from 'vitest';
import { PENDING_DELETE_MS, PendingDeletes, type DeletableReply } from '../../src/discord/pending-deletes.js';

const click = (userId: string): DeletableReply => ({ user: { id: userId }, deleteReply: async () => undefined });

describe('PendingDeletes', () => {
  it('hands a kept click back once, and only to its member', () => {
    const pending = new PendingDeletes();
    const mine = click('1');
    const id = pending.hold(mine);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(pending.take(id, '2')).toBeUndefined();
    expect(pending.take(id, '1')).toBe(mine);
    expect(pending.take(id, '1')).toBeUndefined();
  });

  it('forgets a click before its interaction token expires', () => {
    let now = 0;
    const pending = new PendingDeletes({ now: () => now });
    const id = pending.hold(click('1'));
    now = PENDING_DELETE_MS;
    expect(pending.take(id, '1')).toBeUndefined();
    expect(PENDING_DELETE_MS).toBeLessThan(15 * 60_000);
  });

  it('keeps at most 500, dropping the oldest', () => {
    const pending = new PendingDeletes();
    const first = pending.hold(click('1'));
    for (let i = 0; i < 500; i += 1) pending.hold(click('1'));
    expect(pending.size).toBe(500);
    expect(pending.take(first, '1')).toBeUndefined();
  });
});
