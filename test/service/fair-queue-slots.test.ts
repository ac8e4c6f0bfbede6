import { describe, expect, it } from 'vitest';
import { QueueCancelledError, QueueClosedError } from '../../src/service/fair-queue.js';
import { FakeJobSlots } from '../fakes/fake-job-slots.js';
import { accepted, harness, tick } from './fair-queue-harness.js';

/** A queue over cluster slots whose other "processes" the test plays through `slots.takeElsewhere`. */
function clustered(limits: { global: number; perMember: number }, local = { concurrency: 4, perMemberRunning: 2 }) {
  const slots = new FakeJobSlots(limits);
  return { slots, ...harness({ ...local, slots }) };
}

describe('FairQueue with cluster slots', () => {
  it('starts a job with a free cluster slot without reporting a position, and frees the slot when it ends', async () => {
    const { slots, submit, started, positions, finish, queue } = clustered({ global: 2, perMember: 2 });
    const ticket = accepted(submit('a', 'a1'));
    expect(ticket.position).toBe(0);
    await tick();
    expect(started).toEqual(['a1']);
    expect(slots.held).toBe(1);
    await finish('a1');
    expect(slots.held).toBe(0);
    expect(queue.running).toBe(0);
    expect(positions.get('a1')).toBeUndefined();
  });

  it('asks the cluster slots for each job in its member’s lane, so they apply the lanes across processes', async () => {
    const { slots, submit } = clustered({ global: 4, perMember: 2 });
    submit('a', 'a1');
    submit('p', 'p1', {}, 'priority');
    await tick();
    expect(slots.lanes).toEqual(['normal', 'priority']);
  });

  it('keeps a job waiting while the cluster is full, with its position, and starts it when a slot frees up', async () => {
    const { slots, submit, started, positions, queue } = clustered({ global: 1, perMember: 2 });
    const elsewhere = slots.takeElsewhere('x');
    submit('a', 'a1');
    await tick();
    expect(started).toEqual([]);
    expect(positions.get('a1')).toEqual([1]);
    expect([queue.waiting, queue.running]).toEqual([1, 0]);
    await elsewhere.release();
    await tick();
    expect(started).toEqual(['a1']);
    expect([queue.waiting, queue.running, slots.held]).toEqual([0, 1, 1]);
  });

  it('moves the jobs behind a blocked one up as the queue changes', async () => {
    const { slots, submit, started, positions } = clustered({ global: 1, perMember: 1 }, { concurrency: 1, perMemberRunning: 1 });
    const elsewhere = slots.takeElsewhere('x');
    const first = accepted(submit('a', 'a1'));
    submit('b', 'b1');
    await tick();
    expect(positions.get('b1')).toEqual([2]);
    first.cancel();
    await expect(first.result).rejects.toBeInstanceOf(QueueCancelledError);
    await tick();
    expect(positions.get('b1')).toEqual([2, 1]);
    await elsewhere.release();
    await tick();
    expect(started).toEqual(['b1']);
  });

  it("lets other members' jobs run while one member is at their cluster-wide cap", async () => {
    const { slots, submit, started, positions } = clustered({ global: 4, perMember: 1 });
    slots.takeElsewhere('a');
    submit('a', 'a1');
    submit('b', 'b1');
    await tick();
    expect(started).toEqual(['b1']);
    expect(positions.get('a1')).toEqual([1]);
  });

  it('cancels a job waiting for a cluster slot without releasing anything it does not hold', async () => {
    const { slots, submit, started, queue } = clustered({ global: 1, perMember: 2 });
    const elsewhere = slots.takeElsewhere('x');
    const ticket = accepted(submit('a', 'a1'));
    await tick();
    ticket.cancel();
    await expect(ticket.result).rejects.toBeInstanceOf(QueueCancelledError);
    expect([slots.waiting, slots.releases, slots.held, queue.waiting]).toEqual([0, 0, 1, 0]);
    await elsewhere.release();
    await tick();
    expect(started).toEqual([]);
    expect(slots.held).toBe(0);
  });

  it('hands back a cluster slot granted just after its job was cancelled', async () => {
    const { slots, submit, started } = clustered({ global: 1, perMember: 2 });
    slots.ignoreAbort = true;
    const elsewhere = slots.takeElsewhere('x');
    const ticket = accepted(submit('a', 'a1'));
    await tick();
    ticket.cancel();
    await expect(ticket.result).rejects.toBeInstanceOf(QueueCancelledError);
    await elsewhere.release();
    await tick();
    expect(started).toEqual([]);
    expect([slots.held, slots.releases]).toEqual([0, 2]);
  });

  it('close rejects jobs waiting for a cluster slot and waits for running ones', async () => {
    const { slots, submit, job, queue } = clustered({ global: 1, perMember: 2 });
    const running = accepted(submit('a', 'a1'));
    const waiting = accepted(submit('b', 'b1'));
    await tick();
    let closed = false;
    const closing = queue.close().then(() => (closed = true));
    await expect(waiting.result).rejects.toBeInstanceOf(QueueClosedError);
    await tick();
    expect([closed, slots.waiting, slots.held]).toEqual([false, 0, 1]);
    job('a1').resolve('done');
    await closing;
    await expect(running.result).resolves.toBe('done');
    expect(slots.held).toBe(0);
  });

  it('fails the job whose cluster slot cannot be acquired (the store is down) and goes on with the next', async () => {
    const { slots, submit, started } = clustered({ global: 1, perMember: 2 }, { concurrency: 1, perMemberRunning: 1 });
    const down = new Error('store down');
    slots.failNext(down);
    const failed = accepted(submit('a', 'a1'));
    submit('b', 'b1');
    await expect(failed.result).rejects.toBe(down);
    await tick();
    expect(started).toEqual(['b1']);
    expect(slots.held).toBe(1);
  });

  it('counts jobs acquiring a cluster slot against the local caps', async () => {
    const { slots, submit, started } = clustered({ global: 1, perMember: 2 }, { concurrency: 2, perMemberRunning: 2 });
    slots.takeElsewhere('x');
    for (const label of ['a1', 'b1', 'c1']) submit(label.slice(0, 1), label);
    await tick();
    expect([started.length, slots.waiting]).toEqual([0, 2]);
  });
});
