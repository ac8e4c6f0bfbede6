/**
 * Moderation strikes (issue 27), as the service applies them: a paused member is refused before anything is
 * reserved, queued or sent (every job and every description passes {@link ModerationGate.check} first), each request
 * the gateway's moderation refuses is a strike (the member is warned how many are left, or told until when they are
 * paused, and the audit channel is told of the pause), and admins see strikes and pauses in /usage and lift them with
 * /quota strikes-clear. The rule itself is in moderation-strikes.ts, the records in the store.
 */
import type { StrikeReport, StrikeStatus } from '../core/reports.js';
import type { Logger } from 'pino';
import { UserFacingError } from '../errors.js';
import type { AuditTrail } from '../ports/audit-trail.js';
import { toUserFacingError } from './error-mapping.js';
import type { ImageJob } from '../core/jobs.js';
import { countStrikes, pausedUntil, strikesWithin, type MemberStrikes, type StrikeMember, type StrikePolicy } from '../core/moderation-strikes.js';
import { type StrikeStore } from '../ports/strike-store.js';
import { phrase } from '../core/phrase.js';
import { systemClock, type Clock } from '../ports/clock.js';
import { type QuotaPeriod } from '../core/quota.js';
import type { SettingsStore } from './settings-store.js';
import { daysOf } from './usage-report.js';

const HOUR_MS = 3_600_000;

/** Options of {@link ModerationGate}. */
export interface ModerationGateOptions {
  store: StrikeStore;
  /** MODERATION_STRIKES (0: off), MODERATION_STRIKE_WINDOW_HOURS and MODERATION_PAUSE_HOURS, in milliseconds. */
  policy: StrikePolicy;
  /** Where a server's audit channel is named; with `audit`, pauses and lifts are told there. */
  settings?: Pick<SettingsStore, 'get'> | undefined;
  audit?: Pick<AuditTrail, 'memberPaused' | 'settingsChanged'> | undefined;
  clock?: Clock | undefined;
  logger: Logger;
}

/** See the module comment. */
export class ModerationGate {
  readonly #options: ModerationGateOptions;
  readonly #log: Logger;

  constructor(options: ModerationGateOptions) {
    this.#options = options;
    this.#log = options.logger.child({ module: 'moderation-strikes' });
  }

  /** Strikes are on (MODERATION_STRIKES above 0). */
  get on(): boolean {
    return this.#options.policy.strikes > 0;
  }

  /** Refuses a paused member, telling them until when. @throws UserFacingError('moderation.paused') */
  async check(member: StrikeMember): Promise<void> {
    if (!this.on) return;
    const until = pausedUntil(await this.#options.store.read(member), this.#now());
    if (until !== undefined) throw new UserFacingError('moderation.paused', { resetsAt: until });
  }

  /**
   * The error a job's member reads for `error` (the gateway's, or as the member reads it): a moderation refusal
   * counted as a strike (with how many are left before a pause, or until when the member is now paused); any other
   * error as it is. Never fails: a strike the store cannot count is logged and the refusal told as it is.
   */
  async counted(error: unknown, job: Pick<ImageJob, 'id' | 'subject' | 'origin'>): Promise<unknown> {
    if (!this.on || !isModerationRefusal(error)) return error;
    const { policy } = this.#options;
    const now = this.#now();
    const member = { guildId: job.subject.guildId, userId: job.subject.userId };
    try {
      const outcome = await this.#options.store.strike(member, now, policy);
      if (outcome.pausedUntil !== undefined)
        await this.#paused(job, outcome.strikes, outcome.pausedUntil).catch((err: unknown) =>
          this.#log.warn({ err, jobId: job.id }, 'could not tell the audit channel of a pause'),
        );
      const until = pausedUntil(outcome.record, now);
      if (until !== undefined) return new UserFacingError('moderation.pausedNow', { resetsAt: until, limit: policy.strikes }, { cause: error });
      const warning = { left: policy.strikes - outcome.strikes, windowHours: hours(policy.windowMs), pauseHours: hours(policy.pauseMs) };
      return new UserFacingError('gateway.contentRejected', { detail: phrase('detail.moderation.warning', warning) }, { cause: error });
    } catch (err) {
      this.#log.warn({ err, jobId: job.id }, 'could not count a moderation strike');
      return error;
    }
  }

  /** The member's strikes within the window and their pause; undefined while strikes are off. */
  async status(member: StrikeMember): Promise<StrikeStatus | undefined> {
    if (!this.on) return undefined;
    return this.#statusOf(await this.#options.store.read(member), this.#now());
  }

  /**
   * The server's strikes and pauses in the current `period` (with `userId`, that member's), and who is paused now;
   * undefined while strikes are off. Each pause listed is read again from its member's own record, which decides.
   */
  async report(guildId: string, period: QuotaPeriod, userId?: string): Promise<StrikeReport | undefined> {
    if (!this.on) return undefined;
    const now = this.#now();
    const server = await this.#options.store.server(guildId);
    const listed = Object.keys(server?.paused ?? {}).filter((id) => userId === undefined || id === userId);
    const records = await Promise.all(listed.map((id) => this.#options.store.read({ guildId, userId: id })));
    const paused = listed
      .map((id, i) => ({ userId: id, until: pausedUntil(records[i], now) }))
      .filter((p): p is { userId: string; until: number } => p.until !== undefined)
      .sort((a, b) => a.until - b.until);
    return { ...countStrikes(server, daysOf(period, now).days, userId), paused };
  }

  /** Clears a member's strikes and lifts their pause (an admin's /quota strikes-clear), logged and told to the audit channel. */
  async lift(actorId: string, member: { guildId: string; userId: string }, options: { locale?: string | null | undefined } = {}): Promise<StrikeStatus> {
    const now = this.#now();
    const status = this.#statusOf(await this.#options.store.clear(member, now), now);
    const was = { strikes: status.strikes, pausedUntil: status.pausedUntil === undefined ? undefined : new Date(status.pausedUntil).toISOString() };
    this.#log.info({ actorId, action: 'quota.strikesClear', target: member, before: was }, 'moderation strikes cleared');
    const auditChannelId = await this.#auditChannel(member.guildId);
    if (auditChannelId !== undefined)
      await this.#options.audit?.settingsChanged({
        guildId: member.guildId,
        auditChannelId,
        by: actorId,
        setting: '/quota strikes-clear',
        target: { kind: 'member', ...member },
        before: was,
        after: { strikes: 0 },
        locale: options.locale,
      });
    return status;
  }

  /** Logs a member's pause and tells their server's audit channel. */
  async #paused(job: Pick<ImageJob, 'id' | 'subject' | 'origin'>, strikes: number, until: number): Promise<void> {
    const { guildId, userId } = job.subject;
    this.#log.warn({ jobId: job.id, guildId, userId, strikes, pausedUntil: until }, 'member paused after moderation refusals');
    const auditChannelId = guildId === null ? undefined : await this.#auditChannel(guildId);
    if (guildId === null || auditChannelId === undefined) return;
    const windowHours = hours(this.#options.policy.windowMs);
    await this.#options.audit?.memberPaused({ guildId, auditChannelId, userId, strikes, windowHours, until, jobId: job.id, locale: job.origin.guildLocale });
  }

  #statusOf(record: MemberStrikes | undefined, now: number): StrikeStatus {
    const { policy } = this.#options;
    return {
      strikes: strikesWithin(record, now, policy.windowMs).length,
      limit: policy.strikes,
      windowHours: hours(policy.windowMs),
      pausedUntil: pausedUntil(record, now),
    };
  }

  async #auditChannel(guildId: string): Promise<string | undefined> {
    return (await this.#options.settings?.get(guildId))?.auditChannelId;
  }

  #now(): number {
    return (this.#options.clock ?? systemClock).now();
  }
}

const hours = (ms: number): number => Math.round(ms / HOUR_MS);

/** A refusal of the gateway's moderation (the content_rejected category), before or after it is worded for the member. */
function isModerationRefusal(error: unknown): boolean {
  const refused = toUserFacingError(error, () => []);
  return refused instanceof UserFacingError && refused.identifier === 'gateway.contentRejected';
}
