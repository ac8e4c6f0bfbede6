import { describe, expect, it } from 'vitest';
import { keepLease, systemLeaseTimers } from '../../src/service/lease-renewal.js';
import { deferred } from '../fakes/fake-gateway.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { ManualTimers } from '../fakes/manual-timers.js';
import { LEVEL, memoryLogger } from '../fakes/memory-logger.js';

function setup(renew: () => Promise<void>) {
  const clock = new ManualClock(0);
  const timers = new ManualTimers(clock);
  const { logger, find } = memoryLogger();
  const lease = keepLease({ renew, intervalMs: 20_000, timers, log: logger });
  return { clock, timers, lease, find };
}

describe('keepLease', () => {
  it('renews once per interval until it is stopped', async () => {
    const at: number[] = [];
    const { clock, timers, lease } = setup(async () => {
      at.push(clock.now());
    });
    await timers.advance(19_999);
    expect(at).toEqual([]);
    await timers.advance(60_001);
    expect(at).toEqual([20_000, 40_000, 60_000, 80_000]);
    await lease.stop();
    await timers.advance(60_000);
    expect(at).toHaveLength(4);
    expect(timers.pending).toBe(0);
  });

  it('logs a failed renewal and tries again at the next tick', async () => {
    let calls = 0;
    const { timers, lease, find } = setup(async () => {
      calls += 1;
      if (calls <= 2) throw new Error('store unreachable');
    });
    await timers.advance(60_000);
    expect(calls).toBe(3);
    expect(find('lease renewal failed; retrying at the next tick')).toEqual([
      expect.objectContaining({ level: LEVEL.warn, err: expect.objectContaining({ message: 'store unreachable' }) as unknown }),
      expect.objectContaining({ level: LEVEL.warn }),
    ]);
    await lease.stop();
  });

  it('waits for a renewal in flight when stopped, and schedules no further one', async () => {
    const held = deferred<undefined>();
    let calls = 0;
    const { clock, timers, lease } = setup(async () => {
      calls += 1;
      await held.promise;
    });
    clock.advance(20_000);
    const firing = timers.advance(0);
    let stopped = false;
    const stopping = lease.stop().then(() => {
      stopped = true;
    });
    await Promise.resolve();
    expect(stopped).toBe(false);
    held.resolve(undefined);
    await Promise.all([firing, stopping]);
    expect(calls).toBe(1);
    expect(timers.pending).toBe(0);
  });

  it('runs on the global timers by default', async () => {
    const { logger } = memoryLogger();
    const renewed = deferred<undefined>();
    const lease = keepLease({ renew: async () => renewed.resolve(undefined), intervalMs: 1, timers: systemLeaseTimers, log: logger });
    await renewed.promise;
    await lease.stop();
  });
});
