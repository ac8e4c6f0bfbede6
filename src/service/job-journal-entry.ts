/**
 * What the job journal keeps of an accepted job: the job as the archive stores it (so Re-roll works on a job that
 * was abandoned) and where to answer it. Written by ImageService when it accepts a job, read by AbandonedJobs.
 */
import { z } from 'zod';
import { ArchivedJob, archivedFieldsOf } from './job-archive.js';
import { ReplyAddress, type ImageJob } from '../core/jobs.js';

export const JournalEntry = z.object({
  v: z.literal(1),
  job: ArchivedJob.omit({ v: true, messageIds: true }),
  reply: ReplyAddress.optional(),
  /** The requester's language, for the notice if the job is abandoned (absent in entries of earlier versions). */
  locale: z.string().max(16).optional(),
});
export type JournalEntry = z.infer<typeof JournalEntry>;

/** The journal entry of `job`, answered at `reply`. */
export function journalEntryOf(job: ImageJob, reply: ReplyAddress | undefined): JournalEntry {
  return { v: 1, job: archivedFieldsOf(job), reply, locale: job.origin.locale };
}
