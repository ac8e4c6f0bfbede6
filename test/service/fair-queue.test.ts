import { describe, expect, it } from 'vitest';
import { FairQueue, QueueCancelledError, QueueClosedError } from '../../src/service/fair-queue.js';
import { accepted, harness, tick } from './fair-queue-harness.js';

describe('FairQueue', () => {
  it('defaults to 4 jobs at once and 2 per member', () => {
    const { queue, submit, started } = harness({});
    for (const member of ['a', 'b', 'c', 'd', 'e']) submit(member, member);
    submit('a', 'a2');
    submit('a', 'a3');
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    expect(queue.running).toBe(4);
    expect(queue.waiting).toBe(3);
  });

  it('never runs more jobs than the global cap, starting the next when one finishes', async () => {
    const { queue, submit, started, finish } = harness({ concurrency: 2, perMemberRunning: 5 });
    submit('a', 'a1');
    submit('b', 'b1');
    submit('c', 'c1');
    expect(started).toEqual(['a1', 'b1']);
    expect(queue.waiting).toBe(1);
    await finish('a1');
    expect(started).toEqual(['a1', 'b1', 'c1']);
    expect(queue.running).toBe(2);
    expect(queue.waiting).toBe(0);
  });

  it('holds a member at their running cap without blocking others', async () => {
    const { queue, submit, started, finish } = harness({ concurrency: 4, perMemberRunning: 2 });
    submit('a', 'a1');
    submit('a', 'a2');
    const third = accepted(submit('a', 'a3'));
    submit('b', 'b1');
    expect(started).toEqual(['a1', 'a2', 'b1']);
    expect(third.position).toBe(1);
    expect(queue.running).toBe(3);
    await finish('a1');
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
  });

  it('refuses a member with a full queue, but not other members', async () => {
    const { queue, submit, finish } = harness({ concurrency: 1, perMemberRunning: 1, perMemberQueued: 2 });
    submit('a', 'a1');
    submit('a', 'a2');
    submit('a', 'a3');
    expect(submit('a', 'a4')).toEqual({ accepted: false, reason: 'member_queue_full' });
    expect(submit('b', 'b1').accepted).toBe(true);
    expect(queue.waiting).toBe(3);
    await finish('a1');
    await finish('b1');
    expect(submit('a', 'a5').accepted).toBe(true);
  });

  it("interleaves members so one member's ten jobs do not starve another", async () => {
    const { submit, started, finish } = harness({ concurrency: 1, perMemberRunning: 1 });
    for (let i = 1; i <= 10; i++) submit('a', `a${i}`);
    submit('b', 'b1');
    // for-of also visits what is started while it runs, as the index loop did.
    for (const id of started) await finish(id);
    expect(started.indexOf('b1')).toBe(1);
    expect(started).toHaveLength(11);
  });

  it('serves members round-robin, newcomers before members already served', async () => {
    const { submit, started, finish } = harness({ concurrency: 1, perMemberRunning: 1 });
    submit('a', 'a1');
    submit('a', 'a2');
    submit('a', 'a3');
    submit('b', 'b1');
    submit('b', 'b2');
    submit('b', 'b3');
    submit('c', 'c1');
    const order = ['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'b3'];
    for (const label of order) await finish(label);
    expect(started).toEqual(order);
  });

  it('reports positions on accept and updates them as the queue moves', async () => {
    const { submit, positions, finish } = harness({ concurrency: 1, perMemberRunning: 1 });
    const first = accepted(submit('a', 'a1'));
    const second = accepted(submit('a', 'a2'));
    submit('a', 'a3');
    expect([first.position, second.position]).toEqual([0, 1]);
    expect(positions.get('a1')).toBeUndefined();
    submit('b', 'b1');
    expect(positions.get('b1')).toEqual([1]);
    expect(positions.get('a2')).toEqual([1, 2]);
    expect(positions.get('a3')).toEqual([2, 3]);
    await finish('a1');
    expect(positions.get('a2')).toEqual([1, 2, 1]);
    expect(positions.get('a3')).toEqual([2, 3, 2]);
    expect(positions.get('b1')).toEqual([1]);
  });

  it('calls onStart when a waiting job starts', async () => {
    const { submit, finish } = harness({ concurrency: 1 });
    const starts: string[] = [];
    submit('a', 'a1', { onStart: () => starts.push('a1') });
    submit('b', 'b1', { onStart: () => starts.push('b1') });
    expect(starts).toEqual(['a1']);
    await finish('a1');
    expect(starts).toEqual(['a1', 'b1']);
  });

  it('removes a cancelled waiting job without running it', async () => {
    const { queue, submit, started, positions, finish } = harness({ concurrency: 1, perMemberRunning: 1 });
    submit('a', 'a1');
    const waiting = accepted(submit('b', 'b1'));
    submit('c', 'c1');
    waiting.cancel();
    await expect(waiting.result).rejects.toBeInstanceOf(QueueCancelledError);
    expect(queue.waiting).toBe(1);
    expect(positions.get('c1')).toEqual([2, 1]);
    await finish('a1');
    expect(started).toEqual(['a1', 'c1']);
  });

  it('aborts a cancelled running job and frees its slot once it settles', async () => {
    const { queue, submit, started, job } = harness({ concurrency: 1 });
    const running = accepted(submit('a', 'a1'));
    submit('b', 'b1');
    running.cancel();
    const { signal } = job('a1');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(QueueCancelledError);
    expect(started).toEqual(['a1']);
    job('a1').reject(signal.reason);
    await expect(running.result).rejects.toBeInstanceOf(QueueCancelledError);
    await tick();
    expect(started).toEqual(['a1', 'b1']);
    expect(queue.running).toBe(1);
  });

  it('rejects a cancelled running job even if it completes anyway', async () => {
    const { submit, job } = harness({ concurrency: 1 });
    const running = accepted(submit('a', 'a1'));
    running.cancel();
    job('a1').resolve('late image');
    await expect(running.result).rejects.toBeInstanceOf(QueueCancelledError);
  });

  it('close rejects waiting jobs, refuses new ones and waits for running jobs', async () => {
    const { queue, submit, started, job } = harness({ concurrency: 1 });
    const running = accepted(submit('a', 'a1'));
    const waiting = accepted(submit('b', 'b1'));
    let closed = false;
    const closing = queue.close().then(() => {
      closed = true;
    });
    await expect(waiting.result).rejects.toBeInstanceOf(QueueClosedError);
    expect(submit('c', 'c1')).toEqual({ accepted: false, reason: 'closed' });
    await tick();
    expect(closed).toBe(false);
    job('a1').resolve('done');
    await closing;
    await expect(running.result).resolves.toBe('done');
    expect(started).toEqual(['a1']);
    expect(queue.waiting).toBe(0);
  });

  it('close aborts running jobs that outlast the grace period', async () => {
    const { queue, submit, job } = harness({ concurrency: 1 });
    const running = accepted(submit('a', 'a1'));
    await queue.close(5);
    expect(job('a1').signal.reason).toBeInstanceOf(QueueClosedError);
    job('a1').reject(new Error('aborted'));
    await expect(running.result).rejects.toBeInstanceOf(QueueClosedError);
  });

  it('close resolves at once when nothing runs', async () => {
    await new FairQueue().close();
  });

  it('keeps going after a job fails, whether it rejects or throws', async () => {
    const queue = new FairQueue({ concurrency: 1 });
    const failure = new Error('gateway down');
    const rejecting = accepted(queue.submit('a', () => Promise.reject(failure)));
    const throwing = accepted(
      queue.submit('a', () => {
        throw failure;
      }),
    );
    const healthy = accepted(queue.submit('b', () => Promise.resolve('ok')));
    await expect(rejecting.result).rejects.toBe(failure);
    await expect(throwing.result).rejects.toBe(failure);
    await expect(healthy.result).resolves.toBe('ok');
    expect(queue.running).toBe(0);
  });

  it('keeps scheduling when a hook throws', async () => {
    const { submit, started, finish } = harness({ concurrency: 1 });
    const explode = () => {
      throw new Error('hook failed');
    };
    submit('a', 'a1', { onStart: explode });
    submit('b', 'b1', { onPosition: explode, onStart: explode });
    await finish('a1');
    expect(started).toEqual(['a1', 'b1']);
  });

  const invalid = [{ concurrency: 0 }, { perMemberRunning: 1.5 }, { perMemberQueued: -1 }];
  it.each(invalid)('rejects the limit %j', (options) => {
    expect(() => new FairQueue(options)).toThrow(RangeError);
  });
});
