import type { ReplyAddress } from '../core/jobs.js';

/** A job whose process died before it settled: refunded, and its member is told. */
export interface AbandonedJobNotice {
  jobId: string;
  prompt: string;
  requesterId: string;
  guildId: string | null;
  channelId: string | null;
  /** Absent when the job was journalled without one. */
  reply?: ReplyAddress | undefined;
  /** The requester's language; absent: English. */
  locale?: string | undefined;
}

/**
 * Tells a member that their job was cancelled and not charged (implemented over Discord: an edit of the original
 * reply while its token lives, else a message in the channel that mentions them, else a direct message), with a
 * Re-roll button.
 */
export interface AbandonedJobNotifier {
  tell(notice: AbandonedJobNotice): Promise<void>;
}
