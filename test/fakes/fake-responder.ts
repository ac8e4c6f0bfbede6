/**
 * A Responder that records progress and deliveries; delivery can be scripted to fail.
 */
import type { Delivery, JobProgress } from '../../src/core/jobs.js';
import type { Responder } from '../../src/ports/responder.js';

export class FakeResponder implements Responder {
  readonly maxFileBytes: number;
  readonly ready: Promise<void> | undefined;
  readonly progressUpdates: JobProgress[] = [];
  readonly deliveries: Delivery[] = [];
  /** When set, deliver throws it. */
  deliverError: Error | undefined;
  readonly #waiters: { match: (p: JobProgress) => boolean; resolve: (p: JobProgress) => void }[] = [];
  #messages = 0;

  constructor(options: { maxFileBytes?: number; deliverError?: Error; ready?: Promise<void> } = {}) {
    this.maxFileBytes = options.maxFileBytes ?? 10 * 1024 * 1024;
    this.ready = options.ready;
    this.deliverError = options.deliverError;
  }

  async progress(update: JobProgress): Promise<void> {
    this.progressUpdates.push(update);
    for (const waiter of this.#waiters.filter((w) => w.match(update))) {
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve(update);
    }
  }

  async deliver(delivery: Delivery): Promise<{ messageIds: string[] }> {
    if (this.deliverError) throw this.deliverError;
    this.deliveries.push(delivery);
    this.#messages += 1;
    return { messageIds: [`50000000000000000${this.#messages}`] };
  }

  /** Resolves with the first progress update (past or future) that matches. */
  waitForProgress(match: (p: JobProgress) => boolean): Promise<JobProgress> {
    const seen = this.progressUpdates.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.#waiters.push({ match, resolve }));
  }
}
