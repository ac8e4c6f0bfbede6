/**
 * Rate limiting for progress edits on a deferred reply. Every edit is a Discord API call on the interaction's
 * webhook, which shares a rate limit with the final delivery, so progress is coalesced: only the latest state
 * matters, and it is sent no more than once per interval.
 */

/** The timer functions the throttle needs; injected so tests can drive time by hand. */
export interface ThrottleTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Options for {@link createProgressThrottle}. */
export interface ProgressThrottleOptions {
  /** Minimum time between the starts of two sends, in milliseconds. */
  intervalMs: number;
  /** @default the global timers and `Date.now` */
  timers?: ThrottleTimers | undefined;
  /**
   * Receives errors from `send`. Progress is best effort: a failed edit is reported here and the next state is
   * still sent. Without it, errors are ignored.
   */
  onError?: ((error: unknown) => void) | undefined;
}

/** A coalescing, rate-limited sender of progress states. */
export interface ProgressThrottle<S> {
  /**
   * Records the latest state. The first update is sent at once; later ones no sooner than `intervalMs` after
   * the previous send started, and never while a send is in flight. States superseded before they are sent are
   * dropped.
   */
  update(state: S): void;
  /** Resolves when no send is in flight (a pending, not yet due state stays pending). */
  flush(): Promise<void>;
  /** Drops any pending state, waits for the in-flight send; later updates are ignored. */
  stop(): Promise<void>;
}

const systemTimers: ThrottleTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => {
    clearTimeout(handle as Parameters<typeof clearTimeout>[0]);
  },
};

/** A state waiting to be sent; boxed so that `undefined` is a valid state. */
interface Pending<S> {
  state: S;
}

/**
 * Creates a throttle around `send`, typically an `editReply` with the rendered progress.
 *
 * @example
 * const progress = createProgressThrottle((s) => responder.progress(s), { intervalMs: 3000 });
 * progress.update({ kind: 'queued', position: 2 });
 */
export function createProgressThrottle<S>(send: (state: S) => Promise<void>, options: ProgressThrottleOptions): ProgressThrottle<S> {
  return new Throttle(send, options);
}

class Throttle<S> implements ProgressThrottle<S> {
  private readonly timers: ThrottleTimers;
  private pending: Pending<S> | undefined;
  private inFlight: Promise<void> | undefined;
  private timer: unknown;
  private timerSet = false;
  private lastStart: number | undefined;
  private stopped = false;

  private readonly send: (state: S) => Promise<void>;
  private readonly options: ProgressThrottleOptions;

  constructor(send: (state: S) => Promise<void>, options: ProgressThrottleOptions) {
    this.send = send;
    this.options = options;
    this.timers = options.timers ?? systemTimers;
  }

  update(state: S): void {
    if (this.stopped) return;
    this.pending = { state };
    this.schedule();
  }

  async flush(): Promise<void> {
    // A finished send may start the next one at once when its interval has already passed.
    while (this.inFlight !== undefined) await this.inFlight;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.pending = undefined;
    if (this.timerSet) this.timers.clearTimeout(this.timer);
    this.timerSet = false;
    await this.flush();
  }

  private schedule(): void {
    if (this.stopped || this.pending === undefined || this.inFlight !== undefined || this.timerSet) return;
    const wait = this.lastStart === undefined ? 0 : this.lastStart + this.options.intervalMs - this.timers.now();
    if (wait <= 0) {
      this.start(this.pending.state);
      return;
    }
    this.timerSet = true;
    this.timer = this.timers.setTimeout(() => {
      this.timerSet = false;
      this.schedule();
    }, wait);
  }

  private start(state: S): void {
    this.pending = undefined;
    this.lastStart = this.timers.now();
    this.inFlight = invoke(this.send, state)
      .catch((error: unknown) => this.options.onError?.(error))
      .finally(() => {
        this.inFlight = undefined;
        this.schedule();
      });
  }
}

/** Calls `send`, turning a synchronous throw into a rejection so one error path handles both. */
function invoke<S>(send: (state: S) => Promise<void>, state: S): Promise<void> {
  try {
    return send(state);
  } catch (error) {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes on exactly what send threw, as its own rejection would
    return Promise.reject(error);
  }
}
