/**
 * What members make of results beside images (issue 32): an emoji or a sticker added to a server, a result posted
 * to its showcase, a style saved or deleted. Each one made on a server is counted in its day (the usage totals' `x:`
 * counters, shown by /usage) and told to its audit channel when the server has one. The bookkeeping never fails what
 * it records: a store or a channel that cannot be reached is logged.
 */
import type { Logger } from 'pino';
import { isoDate } from '../core/periods.js';
import type { MemberAction } from '../core/member-actions.js';
import type { AuditedAction, AuditTrail } from '../ports/audit-trail.js';
import type { Clock } from '../ports/clock.js';
import type { UsageTotals } from '../ports/usage-totals.js';
import { newJobId } from './job-id.js';
import type { SettingsStore } from './settings-store.js';

/** One thing made (a deleted style is told, not counted). */
export interface MadeAction extends Omit<AuditedAction, 'guildId' | 'auditChannelId'> {
  guildId: string | null;
}

/** Options of {@link MemberActions}; without `settings` no server has an audit channel, without `totals` nothing is counted. */
export interface MemberActionsOptions {
  settings?: Pick<SettingsStore, 'get'> | undefined;
  audit?: Pick<AuditTrail, 'memberAction'> | undefined;
  totals?: Pick<UsageTotals, 'add'> | undefined;
  clock: Clock;
  logger: Logger;
}

/** See the module comment. */
export class MemberActions {
  readonly #options: MemberActionsOptions;
  readonly #log: Logger;

  constructor(options: MemberActionsOptions) {
    this.#options = options;
    this.#log = options.logger.child({ module: 'member-actions' });
  }

  /** Counts `made` in its server's day and tells its audit channel; never rejects. */
  async record(made: MadeAction): Promise<void> {
    const { guildId } = made;
    if (guildId === null) return;
    await Promise.all([this.#count(guildId, made), this.#tell(guildId, made)]);
  }

  async #count(guildId: string, made: MadeAction): Promise<void> {
    if (made.action === 'styleDeleted' || !this.#options.totals) return;
    const action: MemberAction = made.action;
    const entry = { jobId: newJobId(), userId: made.userId, outcome: 'action' as const, action, delivered: 0, reachedGateway: false };
    await this.#options.totals
      .add(guildId, isoDate(this.#options.clock.now()), entry)
      .catch((err: unknown) => this.#log.warn({ err, guildId, action }, 'could not count a member action'));
  }

  async #tell(guildId: string, made: MadeAction): Promise<void> {
    try {
      const auditChannelId = (await this.#options.settings?.get(guildId))?.auditChannelId;
      if (auditChannelId !== undefined) await this.#options.audit?.memberAction({ ...made, guildId, auditChannelId });
    } catch (err) {
      this.#log.warn({ err, guildId, action: made.action }, 'could not tell the audit channel of a member action');
    }
  }
}
