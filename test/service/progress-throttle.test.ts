import { describe, expect, it, vi } from 'vitest';
import { createProgressThrottle, type ThrottleTimers } from '../../src/service/progress-throttle.js';

/** Timers driven by hand: `advance` runs due callbacks in time order. */
class ManualTimers implements ThrottleTimers {
  private time = 0;
  private nextId = 1;
  private readonly scheduled = new Map<number, { at: number; fn: () => void }>();

  now(): number {
    return this.time;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.scheduled.set(id, { at: this.time + ms, fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    if (typeof handle === 'number') this.scheduled.delete(handle);
  }
  get pendingCount(): number {
    return this.scheduled.size;
  }
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const due = [...this.scheduled.entries()].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined) break;
      this.scheduled.delete(due[0]);
      this.time = due[1].at;
      due[1].fn();
    }
    this.time = target;
  }
}

/** A send whose calls stay in flight until the test settles them. */
function controlledSend<S>() {
  const calls: { state: S; resolve: () => void; reject: (e: unknown) => void }[] = [];
  const send = (state: S) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ state, resolve, reject });
    });
  const settle = async (index: number) => {
    calls[index]?.resolve();
    // Let the throttle's finally handler run.
    await new Promise<void>((r) => setImmediate(r));
  };
  return { calls, send, settle, states: () => calls.map((c) => c.state) };
}

const INTERVAL = 1000;

function setup() {
  const timers = new ManualTimers();
  const sender = controlledSend<string>();
  const onError = vi.fn();
  const throttle = createProgressThrottle(sender.send, { intervalMs: INTERVAL, timers, onError });
  return { timers, sender, throttle, onError };
}

describe('createProgressThrottle', () => {
  it('sends the first update at once', () => {
    const { sender, throttle } = setup();
    throttle.update('queued #3');
    expect(sender.states()).toEqual(['queued #3']);
  });

  it('waits for the interval after the previous send started', async () => {
    const { timers, sender, throttle } = setup();
    throttle.update('a');
    await sender.settle(0);
    timers.advance(100);
    throttle.update('b');
    timers.advance(INTERVAL - 101);
    expect(sender.states()).toEqual(['a']);
    timers.advance(1);
    expect(sender.states()).toEqual(['a', 'b']);
  });

  it('coalesces updates so only the latest state is sent', async () => {
    const { timers, sender, throttle } = setup();
    throttle.update('a');
    throttle.update('b');
    throttle.update('c');
    await sender.settle(0);
    timers.advance(INTERVAL);
    expect(sender.states()).toEqual(['a', 'c']);
  });

  it('never starts a send while another is in flight', async () => {
    const { timers, sender, throttle } = setup();
    throttle.update('a');
    throttle.update('b');
    timers.advance(INTERVAL * 5);
    expect(sender.states()).toEqual(['a']);
    await sender.settle(0);
    // The interval passed long ago, so the held state goes out as soon as the slow send finished.
    expect(sender.states()).toEqual(['a', 'b']);
  });

  it('sends an update that arrives after the interval immediately', async () => {
    const { timers, sender, throttle } = setup();
    throttle.update('a');
    await sender.settle(0);
    timers.advance(INTERVAL);
    throttle.update('b');
    expect(sender.states()).toEqual(['a', 'b']);
  });

  it('flush waits for the in-flight send', async () => {
    const { sender, throttle } = setup();
    throttle.update('a');
    let flushed = false;
    const flushing = throttle.flush().then(() => {
      flushed = true;
    });
    await new Promise<void>((r) => setImmediate(r));
    expect(flushed).toBe(false);
    sender.calls[0]?.resolve();
    await flushing;
    expect(flushed).toBe(true);
  });

  it('stop drops the pending state, waits for the in-flight send and ignores later updates', async () => {
    const { timers, sender, throttle } = setup();
    throttle.update('a');
    await sender.settle(0);
    throttle.update('b');
    expect(timers.pendingCount).toBe(1);
    await throttle.stop();
    expect(timers.pendingCount).toBe(0);
    throttle.update('c');
    timers.advance(INTERVAL * 3);
    expect(sender.states()).toEqual(['a']);
  });

  it('stop resolves only after the in-flight send settles', async () => {
    const { sender, throttle } = setup();
    throttle.update('a');
    throttle.update('b');
    let stopped = false;
    const stopping = throttle.stop().then(() => {
      stopped = true;
    });
    await new Promise<void>((r) => setImmediate(r));
    expect(stopped).toBe(false);
    await sender.settle(0);
    await stopping;
    expect(sender.states()).toEqual(['a']);
  });

  it('reports a failed send and keeps sending later states', async () => {
    const { timers, sender, throttle, onError } = setup();
    throttle.update('a');
    const failure = new Error('edit failed');
    sender.calls[0]?.reject(failure);
    await throttle.flush();
    expect(onError).toHaveBeenCalledWith(failure);
    timers.advance(INTERVAL);
    throttle.update('b');
    expect(sender.states()).toEqual(['a', 'b']);
  });

  it('treats a send that throws synchronously like a rejection', async () => {
    const timers = new ManualTimers();
    const onError = vi.fn();
    const failure = new Error('boom');
    const throttle = createProgressThrottle<string>(
      () => {
        throw failure;
      },
      { intervalMs: INTERVAL, timers, onError },
    );
    throttle.update('a');
    await throttle.flush();
    expect(onError).toHaveBeenCalledWith(failure);
  });
});
