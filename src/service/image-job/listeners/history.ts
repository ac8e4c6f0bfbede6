/** Listener: adds a delivered job to its member's history (member-history.ts: /history, /show). */
import type { MemberHistory } from '../../member-history.js';
import type { SettledListener } from '../settled-event.js';

export function historyListener(history: Pick<MemberHistory, 'record'>): SettledListener {
  return {
    failure: 'could not add the job to its member history',
    onSettled: async ({ ran, posted, answer, delivered }) => {
      if (ran && posted && answer) await history.record({ ...ran.job, request: ran.request }, { model: answer.model, images: delivered, posted });
    },
  };
}
