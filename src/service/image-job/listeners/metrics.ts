/** Listener: tells the operator's metrics how the job ended (job-metrics.ts). */
import type { JobMetrics } from '../../../ports/job-metrics.js';
import type { SettledListener } from '../settled-event.js';

export function metricsListener(metrics: Pick<JobMetrics, 'jobSettled'>): SettledListener {
  return {
    failure: 'could not count the job in the metrics',
    onSettled: ({ outcome }) => {
      metrics.jobSettled(outcome);
      return Promise.resolve();
    },
  };
}
