import { describe, expect, it } from 'vitest';
import { KeyedMutex } from '../../src/storage/keyed-mutex.js';
import { yieldTurns } from './helpers.js';

describe('KeyedMutex', () => {
  it('runs tasks of one key one at a time, in order', async () => {
    const mutex = new KeyedMutex();
    const events: string[] = [];
    let running = 0;
    await Promise.all(
      [1, 2, 3, 4].map((n) =>
        mutex.run('k', async () => {
          running += 1;
          expect(running).toBe(1);
          events.push(`start ${n}`);
          await yieldTurns(3);
          events.push(`end ${n}`);
          running -= 1;
        }),
      ),
    );
    expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3', 'start 4', 'end 4']);
  });

  it('lets different keys run at the same time', async () => {
    const mutex = new KeyedMutex();
    let release!: () => void;
    const blocked = mutex.run('a', () => new Promise<void>((resolve) => (release = resolve)));
    await expect(mutex.run('b', async () => 'b done')).resolves.toBe('b done');
    release();
    await blocked;
  });

  it('keeps going after a task fails and forgets idle keys', async () => {
    const mutex = new KeyedMutex();
    const failed = mutex.run('k', async () => {
      throw new Error('boom');
    });
    const next = mutex.run('k', async () => 'next');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
    expect(mutex.size).toBe(0);
  });
});
