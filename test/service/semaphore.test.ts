import { describe, expect, it } from 'vitest';
import { Semaphore } from '../../src/service/semaphore.js';

describe('Semaphore', () => {
  it('lets holders take at most the capacity and hands units over in arrival order', async () => {
    const sem = new Semaphore(2);
    const first = await sem.acquire();
    const second = await sem.acquire();
    const order: string[] = [];
    const third = sem.acquire().then((release) => (order.push('third'), release));
    const fourth = sem.acquire().then((release) => (order.push('fourth'), release));
    await Promise.resolve();
    expect(sem.waiting).toBe(2);
    first();
    first();
    const releaseThird = await third;
    expect(order).toEqual(['third']);
    expect(sem.waiting).toBe(1);
    second();
    (await fourth)();
    releaseThird();
    expect(order).toEqual(['third', 'fourth']);
  });

  it('weighs requests: many small ones at once, a large one alone, and no small one overtakes a waiting large one', async () => {
    const sem = new Semaphore(10);
    const smalls = await Promise.all([sem.acquire(3), sem.acquire(3), sem.acquire(3)]);
    const order: string[] = [];
    const large = sem.acquire(8).then((release) => (order.push('large'), release));
    const small = sem.acquire(1).then((release) => (order.push('small'), release));
    await Promise.resolve();
    expect(order).toEqual([]);
    smalls.forEach((release) => release());
    const releaseLarge = await large;
    await Promise.resolve();
    expect(order).toEqual(['large', 'small']);
    releaseLarge();
    (await small)();
    const huge = await sem.acquire(50);
    expect(sem.waiting).toBe(0);
    huge();
  });

  it('lets an abandoned wait leave the line, holding nothing, so those behind it go on', async () => {
    const sem = new Semaphore(10);
    const holder = await sem.acquire(6);
    const controller = new AbortController();
    const large = sem.acquire(8, controller.signal);
    const small = sem.acquire(4);
    controller.abort(new Error('gave up'));
    await expect(large).rejects.toThrow('gave up');
    // The small one was behind the large one and fits beside the holder.
    (await small)();
    holder();
    expect(sem.inUse).toBe(0);
    expect(sem.waiting).toBe(0);
  });

  it('takes without waiting only what is free, and gives back part of a hold', async () => {
    const sem = new Semaphore(10);
    const hold = await sem.acquire(8);
    expect(sem.tryAcquire(3)).toBeUndefined();
    const waiter = sem.acquire(5);
    hold(3);
    expect(sem.inUse).toBe(10);
    (await waiter)();
    hold();
    hold();
    expect(sem.inUse).toBe(0);
    const now = sem.tryAcquire(10);
    expect(sem.inUse).toBe(10);
    now?.();
  });

  it('refuses a capacity that is not positive', () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });
});
