/**
 * The audit channel (issue 17): when a server's settings name one, every job started there, every change of its
 * settings, every member paused by moderation strikes (issue 27) and every emoji, sticker, showcase post and saved or
 * deleted style (issue 32) is told there as one compact line, by whatever
 * implements {@link AuditTrail} (the Discord adapter posts them; src/discord/audit-poster.ts). Prompts are never
 * included. An audit that cannot be posted never fails a job.
 */
import type { JobCost } from '../core/cost.js';
import type { JobOutcome } from '../core/job-outcome.js';
import type { ImageJob } from '../core/jobs.js';
import type { QuotaTarget } from '../core/quota.js';
import type { MemberAction } from '../core/member-actions.js';

/** One job, as the audit channel reads it. */
export interface AuditedJob {
  guildId: string;
  /** Where the line goes. */
  auditChannelId: string;
  job: Pick<ImageJob, 'id' | 'kind' | 'origin'>;
  outcome: JobOutcome;
  /** The member-facing error's identifier when it did not deliver (`quota.exceeded`). */
  reason?: string | undefined;
  model?: string | undefined;
  size?: string | undefined;
  quality?: string | undefined;
  /** Images asked for, and posted. */
  count: number;
  delivered: number;
  /** What it cost: reported by the gateway, or estimated from its usage and the model's prices. */
  cost?: JobCost | undefined;
  /** The first message of the result. */
  messageId?: string | undefined;
}

/** One change of a server's settings, or of its quotas. */
export interface AuditedChange {
  guildId: string;
  auditChannelId: string;
  by: string;
  /** The command that changed it: a /settings subcommand (`previews`), or a whole command (`/quota set`). */
  setting: string;
  /** Whom a quota change applies to (a member, a role, the whole server); none for the settings as a whole. */
  target?: QuotaTarget | undefined;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  /** The server's preferred language (Discord's `guild_locale`) the line is written in; English when unknown. */
  locale?: string | null | undefined;
}

/** A member paused from generating by their moderation strikes (moderation-gate.ts). */
export interface AuditedPause {
  guildId: string;
  auditChannelId: string;
  userId: string;
  /** The refusals within the window that paused them, and the window's length. */
  strikes: number;
  windowHours: number;
  /** Until when (ms since epoch). */
  until: number;
  /** The job whose refusal paused them. */
  jobId: string;
  /** The server's preferred language (Discord's `guild_locale`) the line is written in; English when unknown. */
  locale?: string | null | undefined;
}

/** Something a member made of a result beside images: an emoji or a sticker added, a showcase post, a style saved or deleted. */
export interface AuditedAction {
  guildId: string;
  auditChannelId: string;
  userId: string;
  action: MemberAction | 'styleDeleted';
  /** The emoji's, sticker's or style's name. */
  name?: string | undefined;
  /** A style saved for the whole server, not the member's own. */
  serverStyle?: boolean | undefined;
  /** A showcase post's author (whose result it is). */
  authorId?: string | undefined;
  /** Where to see it: the showcase post. */
  link?: string | undefined;
  /** The server's preferred language (Discord's `guild_locale`) the line is written in; English when unknown. */
  locale?: string | null | undefined;
}

/** Where audit lines go. Implementations log their own failures and never reject. */
export interface AuditTrail {
  job(entry: AuditedJob): Promise<void>;
  settingsChanged(entry: AuditedChange): Promise<void>;
  memberPaused(entry: AuditedPause): Promise<void>;
  memberAction(entry: AuditedAction): Promise<void>;
}
