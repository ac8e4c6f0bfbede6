/** Listener: records what a settled job that reached the gateway cost (usage-log.ts), posted or not. */
import type { UsageLog } from '../../usage-log.js';
import type { SettledListener } from '../settled-event.js';

export function usageRecordListener(usage: Pick<UsageLog, 'record'>): SettledListener {
  return {
    failure: 'could not record the job usage',
    onSettled: async ({ ran, answer, promptHelp, model, delivered, settledAt, drafting }) => {
      // Images made but not posted: the member is not charged, the operator was; no answer: the enhance call alone.
      if (!ran || (!answer && !promptHelp)) return;
      await usage.record({ ...ran.job, request: ran.request }, answer ?? { model }, delivered, settledAt, answer?.cost, promptHelp, drafting);
    },
  };
}
