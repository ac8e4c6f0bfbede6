/**
 * Jobs of this process that another process claimed (issue 29): when the store was out of reach for a whole lease,
 * the others took this process for dead, refunded its jobs and told their members they were cancelled. Once this
 * process's heartbeat hears of it, those jobs stop where they are: the gateway call is cut, nothing is delivered or
 * charged, and the member is not told anything more (the claimer already did).
 */

/** Thrown by a job stopped because another process claimed it; the error boundary answers nothing. */
export class JobClaimedError extends Error {
  override name = 'JobClaimedError';
  readonly jobId: string;

  constructor(jobId: string) {
    super(`job ${jobId} was claimed by another process`);
    this.jobId = jobId;
  }
}

/** The running jobs of this process, and which of them were claimed. */
export class ClaimedJobs {
  readonly #running = new Map<string, AbortController>();

  /** A job starts: its signal aborts when it is claimed. */
  watch(jobId: string): AbortSignal {
    const controller = new AbortController();
    this.#running.set(jobId, controller);
    return controller.signal;
  }

  /** The signal of a running job (aborted once claimed), or undefined when it is not watched. */
  watching(jobId: string): AbortSignal | undefined {
    return this.#running.get(jobId)?.signal;
  }

  /** A job settled. */
  forget(jobId: string): void {
    this.#running.delete(jobId);
  }

  /** Stops the running jobs among `jobIds` (the heartbeat's answer); resolves with how many were running. */
  stop(jobIds: readonly string[]): number {
    let stopped = 0;
    for (const id of jobIds) {
      const controller = this.#running.get(id);
      if (!controller || controller.signal.aborted) continue;
      controller.abort(new JobClaimedError(id));
      stopped += 1;
    }
    return stopped;
  }

  /** Whether `jobId` was claimed while it ran. */
  claimed(jobId: string): boolean {
    return this.#running.get(jobId)?.signal.aborted === true;
  }

  /** Throws {@link JobClaimedError} when `jobId` was claimed (checked before delivering). */
  check(jobId: string): void {
    if (this.claimed(jobId)) throw new JobClaimedError(jobId);
  }
}
