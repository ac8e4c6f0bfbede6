/**
 * What the use cases answer for members to read (src/service computes them, src/discord/views renders them): a page
 * of a member's history, moderation strikes, a period's usage figures.
 */
import type { HistoryEntry } from './history-entries.js';
import type { Sum } from './usage-totals.js';
import type { Drafts } from './draft-counts.js';
import type { Actions } from './member-actions.js';

/** One page of a member's history. */
export interface HistoryPage {
  entries: HistoryEntry[];
  /** 0-based, within [0, pages). */
  page: number;
  pages: number;
  total: number;
  /** The page counts only jobs delivered until then (ms since epoch), so later jobs do not shift the pages. */
  asOf: number;
}

/** A member's strikes now, as /quota show tells them. */
export interface StrikeStatus {
  strikes: number;
  limit: number;
  windowHours: number;
  pausedUntil?: number | undefined;
}

/** A period's strikes and pauses, and who is paused now (soonest back first), as /usage shows them. */
export interface StrikeReport {
  strikes: number;
  pauses: number;
  paused: { userId: string; until: number }[];
}

/**
 * One day of a period, as /usage's chart draws it: the images delivered and their cost (reported and estimated
 * together), by model and by member (the same objects the day's totals hold, not copies: a day of 5,000 members costs
 * nothing more). For one member's figures, only theirs and no models; for a role's, its holders' and no models.
 */
export interface UsageDay {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  images: number;
  costUsd: number;
  models: Readonly<Record<string, Sum>>;
  members: Readonly<Record<string, Sum>>;
}

/** A period's figures. */
export interface UsageSummary {
  /** First day of the period (ms since epoch, UTC midnight). */
  from: number;
  images: number;
  jobs: number;
  reportedUsd: number;
  estimatedUsd: number;
  /** A role's figures only: its cost, reported and estimated together. */
  costUsd?: number | undefined;
  /** Members by images, most first. */
  members: (Sum & { userId: string })[];
  models: (Sum & { model: string })[];
  refusals: Record<string, number>;
  failures: number;
  /** Jobs that reached the gateway (for the CSV). */
  jobIds: string[];
  jobIdsCut: boolean;
  /** Prompt help's chat calls and their cost (the member's own, with `userId`). */
  promptHelpCalls: number;
  promptHelpUsd: number;
  /** The period's days so far, oldest first (for the chart). */
  days: UsageDay[];
  /** The drafting figures (draft-counts.ts): the server's, the member's, or those of the role's holders. */
  drafts?: Drafts | undefined;
  /** The server's emoji, stickers, showcase posts and styles made (usage-totals.ts); absent for a member's or a role's. */
  actions?: Actions | undefined;
}
