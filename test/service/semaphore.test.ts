import { describe, expect, it } from 'vitest';
import { Semaphore } from '../../src/service/semaphore.js';

describe('Semaphore', () => {
  it('lets at most the given number hold a permit and hands permits over in arrival order', async () => {
    const sem = new Semaphore(2);
    const first = await sem.acquire();
    const second = await sem.acquire();
    const order: string[] = [];
    const third = sem.acquire().then((release) => (order.push('third'), release));
    const fourth = sem.acquire().then((release) => (order.push('fourth'), release));
    await Promise.resolve();
    expect(sem.waiting).toBe(2);
    expect(order).toEqual([]);
    first();
    first();
    const releaseThird = await third;
    expect(order).toEqual(['third']);
    expect(sem.waiting).toBe(1);
    second();
    (await fourth)();
    releaseThird();
    expect(order).toEqual(['third', 'fourth']);
    const again = await Promise.all([sem.acquire(), sem.acquire()]);
    expect(sem.waiting).toBe(0);
    again.forEach((release) => release());
  });

  it('refuses a permit count that is not a positive integer', () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });
});
