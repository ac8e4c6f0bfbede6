/**
 * One logical request's lifetime: the total deadline (retries and recoveries included) and the caller's signal,
 * joined into one AbortSignal for sockets and retry waits.
 */
import { performance } from 'node:perf_hooks';
import { GatewayCancelledError, GatewayTimeoutError, type GatewayError } from './errors.js';

/** Thrown into the joined signal when the deadline passes, so it can be told apart from a caller abort. */
class DeadlinePassed extends Error {
  override name = 'DeadlinePassed';
}

/** Deadline plus caller cancellation for one logical request. Dispose it when the request settles. */
export class CallScope {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly endsAt: number;
  private readonly callerSignal: AbortSignal | undefined;
  private readonly onCallerAbort = (): void => this.controller.abort(new GatewayCancelledError());

  constructor(deadlineMs: number, callerSignal?: AbortSignal) {
    this.signal = this.controller.signal;
    this.endsAt = performance.now() + deadlineMs;
    this.callerSignal = callerSignal;
    this.timer = setTimeout(() => this.controller.abort(new DeadlinePassed(`deadline of ${deadlineMs} ms passed`)), deadlineMs);
    this.timer.unref();
    if (callerSignal?.aborted) this.onCallerAbort();
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  /** Milliseconds left before the deadline. */
  remainingMs(): number {
    return Math.max(0, this.endsAt - performance.now());
  }

  /** The error to report once the signal has fired: cancelled by the caller, or timed out. */
  abortError(requestId?: string): GatewayError {
    if (this.signal.reason instanceof GatewayCancelledError) return new GatewayCancelledError({ requestId });
    return new GatewayTimeoutError('gateway request passed its deadline', { requestId, cause: this.signal.reason });
  }

  /** Throws the abort error when the scope has ended. */
  throwIfEnded(): void {
    if (this.signal.aborted) throw this.abortError();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }
}
