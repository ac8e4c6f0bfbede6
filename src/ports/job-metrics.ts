/**
 * What the service tells the operator's metrics (src/ops/metrics.ts, wired in main.ts): how each job ended, how long
 * it waited in the queue and how many bytes it posted. A port with a no-op default, so the service and its tests need
 * no metrics library.
 */
import type { JobOutcome } from '../core/job-outcome.js';

/** The service's observations. */
export interface JobMetrics {
  /** A job settled (once per ImageService.run). */
  jobSettled(outcome: JobOutcome): void;
  /** A job's turn came after `seconds` in the fair queue. */
  queueWaited(seconds: number): void;
  /** Files of `bytes` in all were posted to Discord. */
  uploaded(bytes: number): void;
}

/** Observes nothing: the default. */
export const NO_JOB_METRICS: JobMetrics = {
  jobSettled: () => undefined,
  queueWaited: () => undefined,
  uploaded: () => undefined,
};
