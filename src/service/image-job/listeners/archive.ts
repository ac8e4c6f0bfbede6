/** Listener: remembers a delivered job for its buttons (job-archive.ts), with the prompt and quality it ran with. */
import type { JobArchive } from '../../job-archive.js';
import type { SettledListener } from '../settled-event.js';

export function archiveListener(archive: Pick<JobArchive, 'remember'>): SettledListener {
  return {
    failure: 'could not store job for its buttons',
    onSettled: async ({ ran, posted }) => {
      if (ran && posted) await archive.remember(ran.job, posted.messageIds, ran.request.quality);
    },
  };
}
