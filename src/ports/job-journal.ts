/** An accepted job found in the journal of a process that died, as {@link JobJournal.claimAbandoned} hands it over. */
export interface AbandonedJobEntry {
  jobId: string;
  /** What the service wrote with {@link JobJournal.open}; validate before use (it may be from another version). */
  entry: unknown;
}

/**
 * Accepted jobs that are not settled yet, kept in the store under the process that runs them, so that when a process
 * dies (SIGKILL, OOM, power) another process, or this one after a restart, can tell their members. A process holds
 * its journal by a lease (JOB_LEASE_MS) it renews with {@link heartbeat}; once that lapses, any process may claim
 * its jobs, and each job is claimed once across all processes.
 */
export interface JobJournal {
  /** Records an accepted job under this process, with where to answer it (opaque to the store). */
  open(jobId: string, entry: unknown): Promise<void>;
  /** Forgets a settled job. */
  close(jobId: string): Promise<void>;
  /**
   * Extends this process's lease by JOB_LEASE_MS. Resolves with the ids of jobs another process claimed meanwhile
   * (this process looked dead to it: the store was out of reach for a lease period); those stay forgotten.
   */
  heartbeat(): Promise<string[]>;
  /** Takes the jobs of every process whose lease has lapsed; each job is handed to one caller only. */
  claimAbandoned(): Promise<AbandonedJobEntry[]>;
  /** Leaves the journal (graceful stop, with no job left open). */
  retire(): Promise<void>;
}
