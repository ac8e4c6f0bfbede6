/** Listener: counts a settled server job in its server's daily usage totals (usage-totals.ts: the /usage reports). */
import { isoDate } from '../../../core/periods.js';
import type { UsageTotals } from '../../../ports/usage-totals.js';
import type { JobSettled, SettledListener } from '../settled-event.js';

export function usageTotalsListener(totals: Pick<UsageTotals, 'add'>): SettledListener {
  return {
    failure: 'could not count the job in the usage totals',
    onSettled: async (event) => {
      const { job } = event;
      if (job.subject.guildId === null) return;
      await totals.add(job.subject.guildId, isoDate(event.settledAt), {
        jobId: job.id,
        userId: job.subject.userId,
        roleIds: job.subject.roleIds,
        ...endOf(event),
        drafting: event.drafting && { use: event.drafting, requested: event.request.n ?? 1 },
      });
    },
  };
}

/** How the job ended, as the totals and the audit channel count it. */
export function endOf(event: JobSettled) {
  const { outcome, reason, delivered, model, cost, posted, reachedGateway, promptHelp } = event;
  return {
    outcome,
    reason,
    delivered,
    model,
    cost,
    messageId: posted?.messageIds[0],
    reachedGateway,
    promptHelp: promptHelp && { calls: 1, usd: promptHelp.cost?.usd ?? 0 },
  };
}
