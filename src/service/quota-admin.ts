/**
 * What members and admins do with quotas, on top of the ledger: show, set, reset — with every admin change
 * logged (who, what, before, after). Permission checks happen in the command, from the interaction itself.
 */
import type { Logger } from 'pino';
import type { AuditTrail } from '../ports/audit-trail.js';
import type { SettingsStore } from './settings-store.js';
import { withPerks } from './server-settings.js';
import type { MoneyLimit, QuotaLimit, QuotaPeriod, QuotaStatus, QuotaSubject, QuotaTarget, SpendStatus } from '../core/quota.js';
import type { QuotaLedger } from '../ports/quota-ledger.js';
import type { SpendLedger } from '../ports/spend-ledger.js';

/** How an admin's change is told to the audit channel. */
export interface AuditOptions {
  /** The server's preferred language (Discord's `guild_locale`) the audit line is written in; English when unknown. */
  locale?: string | null | undefined;
}

/** Snowflake 0 is never a real member, so its status is the server-level one. */
const SERVER_PROBE_USER = '0';

/** Options for {@link QuotaAdmin}. */
export interface QuotaAdminOptions {
  quotas: QuotaLedger;
  /** The money limits; without them, none can be set and none is shown. */
  spend?: SpendLedger | undefined;
  /** Where a server's audit channel is named, and told of each change (who, what, before, after); without them, nowhere. */
  settings?: Pick<SettingsStore, 'get'> | undefined;
  audit?: Pick<AuditTrail, 'settingsChanged'> | undefined;
  logger: Logger;
}

/** See the module comment. */
export class QuotaAdmin {
  private readonly quotas: QuotaLedger;
  private readonly spend: SpendLedger | undefined;
  private readonly options: QuotaAdminOptions;
  private readonly log: Logger;

  constructor(options: QuotaAdminOptions) {
    this.quotas = options.quotas;
    this.spend = options.spend;
    this.options = options;
    this.log = options.logger.child({ module: 'quota-admin' });
  }

  /** A member's quota now (their perks' multiplier included). */
  async show(subject: QuotaSubject): Promise<QuotaStatus> {
    return this.quotas.status(await this.withPerks(subject));
  }

  /** A member's spending, when a money limit applies to them (their perks' multiplier included). */
  async spending(subject: QuotaSubject): Promise<SpendStatus | undefined> {
    return this.spend?.status(await this.withPerks(subject));
  }

  /** `subject` with the perks their server's settings give them (none without the settings). */
  private async withPerks(subject: QuotaSubject): Promise<QuotaSubject> {
    const { settings } = this.options;
    if (subject.guildId === null || !settings) return subject;
    return withPerks(subject, await settings.get(subject.guildId));
  }

  /** Sets (or with undefined removes) a money limit and logs the change; the period defaults to a month. */
  async setSpendLimit(
    actorId: string,
    target: QuotaTarget,
    usd: number | undefined,
    period: QuotaPeriod = 'month',
    options: AuditOptions = {},
  ): Promise<{ before: MoneyLimit | undefined; after: MoneyLimit | undefined }> {
    if (!this.spend) throw new Error('money limits are not configured');
    const change = await this.spend.setLimit(target, usd === undefined ? undefined : { usd, period });
    this.log.info({ actorId, action: 'quota.spend', target, before: change.before ?? null, after: change.after ?? null }, 'money limit changed');
    await this.audit(actorId, target, '/quota money', { ...change.before }, { ...change.after }, options);
    return change;
  }

  /**
   * Sets a limit and logs the change. Without a period, the server's current period applies (its default,
   * or the configured default), so `limit` alone never silently changes the window.
   */
  async setLimit(
    actorId: string,
    target: QuotaTarget,
    limit: number,
    period?: QuotaPeriod,
    options: AuditOptions = {},
  ): Promise<{ before: QuotaLimit | undefined; after: QuotaLimit }> {
    const window = period ?? (await this.serverPeriod(target.guildId));
    const change = await this.quotas.setLimit(target, { limit, period: window });
    this.log.info({ actorId, action: 'quota.set', target, before: change.before ?? null, after: change.after }, 'quota limit changed');
    await this.audit(actorId, target, '/quota set', { ...change.before }, { ...change.after }, options);
    return change;
  }

  private async serverPeriod(guildId: string): Promise<QuotaPeriod> {
    // A subject with no member override and no roles resolves to the server default (or the configured one).
    return (await this.quotas.status({ guildId, userId: SERVER_PROBE_USER, roleIds: [] })).period;
  }

  /** Clears a member's usage in the current period and logs it. */
  async resetUsage(actorId: string, guildId: string, userId: string, options: AuditOptions = {}): Promise<{ usedBefore: number }> {
    const result = await this.quotas.resetUsage(guildId, userId);
    this.log.info(
      { actorId, action: 'quota.reset', target: { guildId, userId }, before: { used: result.usedBefore }, after: { used: 0 } },
      'quota usage reset',
    );
    await this.audit(actorId, { kind: 'member', guildId, userId }, '/quota reset', { used: result.usedBefore }, { used: 0 }, options);
    return result;
  }

  /** Tells the server's audit channel, when it has one, of an admin's change to whom it applies, in the server's language. */
  private async audit(
    by: string,
    target: QuotaTarget,
    setting: string,
    before: Record<string, unknown>,
    after: Record<string, unknown>,
    { locale }: AuditOptions,
  ): Promise<void> {
    const { settings, audit } = this.options;
    if (!settings || !audit) return;
    const auditChannelId = (await settings.get(target.guildId)).auditChannelId;
    if (auditChannelId === undefined) return;
    await audit.settingsChanged({ guildId: target.guildId, auditChannelId, by, setting, target, before, after, locale });
  }
}
