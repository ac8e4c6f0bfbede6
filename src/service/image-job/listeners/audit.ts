/** Listener: tells a server's audit channel, when it has one, of each job settled there (audit-trail.ts). */
import type { AuditTrail } from '../../../ports/audit-trail.js';
import type { SettledListener } from '../settled-event.js';
import { endOf } from './usage-totals.js';
import { sizeText } from '../../../core/sizes.js';

export function auditListener(audit: Pick<AuditTrail, 'job'>): SettledListener {
  return {
    failure: 'could not tell the audit channel of the job',
    onSettled: async (event) => {
      const { job, settings, request } = event;
      const guildId = job.subject.guildId;
      const auditChannelId = settings?.auditChannelId;
      if (guildId === null || auditChannelId === undefined) return;
      await audit.job({
        guildId,
        auditChannelId,
        job,
        size: request.size && sizeText(request.size),
        quality: request.quality,
        count: request.n ?? 1,
        ...endOf(event),
      });
    },
  };
}
