/**
 * Errors a member can act on. Each has a stable identifier and context; the catalogues (src/i18n/locales) turn it
 * into the message the member sees, in their language. Everything else is a bug or an outage and gets a generic apology with a reference id.
 */

import type { MessageKey } from './i18n/locales.js';
import { formatList, formatUsd, t, type MessageValues } from './i18n/translate.js';

/** Stable identifiers of member-facing errors; each has its message in the catalogues (`error.<identifier>`). */
export type UserErrorIdentifier =
  | 'input.invalid'
  | 'input.attachmentInvalid'
  | 'input.noImages'
  | 'input.moderationNotAllowed'
  | 'quota.exceeded'
  | 'quota.blocked'
  | 'spend.exceeded'
  | 'spend.unpriced'
  | 'queue.full'
  | 'permission.manageServer'
  | 'permission.deleteResult'
  | 'permission.confirmCost'
  | 'gateway.contentRejected'
  | 'gateway.unknownModel'
  | 'gateway.badParameter'
  | 'gateway.transparencyRefused'
  | 'gateway.busy'
  | 'gateway.timedOut'
  | 'gateway.unavailable'
  | 'gateway.failure'
  | 'gateway.endpointMissing'
  | 'storage.unavailable'
  | 'storage.corrupt'
  | 'job.cancelled'
  | 'job.unacknowledged'
  | 'button.expired'
  | 'delivery.failed'
  | 'history.unknownJob'
  | 'history.resultGone'
  | 'settings.modelNotAllowed'
  | 'settings.tooMany'
  | 'settings.channelOnly'
  | 'settings.channelExcept'
  | 'settings.moderationOff'
  | 'settings.moderationRoles'
  | 'promptHelp.off'
  | 'promptHelp.failed';

/** Values the copy may use. */
export interface UserErrorContext {
  /**
   * Which request field (`outputCompression`) or other parameter was wrong. The copy words it through the naming
   * function given to describeUserError (the commands: the option the member typed, `compression`).
   */
  param?: string | undefined;
  /** What is allowed, in words. */
  allowed?: string | undefined;
  /** Free detail written for members (never internal text). */
  detail?: string | undefined;
  /** When a quota resets (ms since epoch). */
  resetsAt?: number | undefined;
  limit?: number | undefined;
  remaining?: number | undefined;
  requested?: number | undefined;
  /** A request's estimated cost, a money limit and what is left of it, in USD. */
  estimateUsd?: number | undefined;
  limitUsd?: number | undefined;
  remainingUsd?: number | undefined;
  /** Channels as mentions (`<#id>, <#id>`), for the channel rules' messages. */
  channels?: string | undefined;
  /** Models that exist, for the unknown-model message. */
  models?: readonly string[] | undefined;
}

/** An error whose message is written for the member; the router answers it ephemerally and logs it at warn. */
export class UserFacingError extends Error {
  override readonly name = 'UserFacingError';
  readonly identifier: UserErrorIdentifier;
  readonly context: UserErrorContext;

  constructor(identifier: UserErrorIdentifier, context: UserErrorContext = {}, options?: ErrorOptions) {
    super(identifier, options);
    this.identifier = identifier;
    this.context = context;
  }
}

/** US dollars as members read them: cents, or a tenth of a cent below one cent. */
export const usd = (value: number | undefined, locale?: string | null): string => formatUsd(locale, value);

/** Words a parameter named in an error context. */
type ParamNamer = (param: string) => string;

const flag = (value: string | readonly string[] | undefined): 'yes' | 'no' => (value === undefined || value.length === 0 ? 'no' : 'yes');

/**
 * The values every error message may use (its catalogue entry, `error.<identifier>`, picks the ones it needs).
 * Optional parts go in with a `has…` flag the message selects on, so each language words both cases itself.
 */
function errorValues(error: UserFacingError, nameOf: ParamNamer, locale: string | null | undefined): MessageValues {
  const c = error.context;
  const resetsAt = c.resetsAt === undefined ? t(locale, 'error.soon') : `<t:${Math.ceil(c.resetsAt / 1000)}:R>`;
  const models = (c.models ?? []).slice(0, 10).map((m) => `\`${m}\``);
  return {
    hasParam: flag(c.param),
    param: c.param === undefined ? '' : nameOf(c.param),
    hasDetail: flag(c.detail),
    detail: c.detail ?? '',
    // Two messages put their detail in words of their own: the model whose price is unknown, the roles allowed.
    hasModel: flag(c.detail),
    model: c.detail ?? '',
    hasRoles: flag(c.detail),
    roles: c.detail ?? '',
    hasAllowed: flag(c.allowed),
    allowed: c.allowed ?? '',
    hasLimit: c.limit === undefined ? 'no' : 'yes',
    // "at most N images" reads 1 when the server's limit is not known.
    limit: c.limit ?? (error.identifier === 'settings.tooMany' ? 1 : 0),
    remaining: c.remaining ?? 0,
    hasRequested: c.requested === undefined ? 'no' : 'yes',
    requested: c.requested ?? 0,
    estimateUsd: formatUsd(locale, c.estimateUsd),
    limitUsd: formatUsd(locale, c.limitUsd),
    remainingUsd: formatUsd(locale, c.remainingUsd),
    resetsAt,
    hasChannels: flag(c.channels),
    channels: c.channels ?? '',
    hasModels: flag(models),
    models: formatList(locale, models),
  };
}

/** Each identifier's message in the catalogues: adding an identifier without its English text does not compile. */
const messageKeyOf = (identifier: UserErrorIdentifier): `error.${UserErrorIdentifier}` & MessageKey => `error.${identifier}`;

/**
 * The member-facing text for an error, with its reference id, in the member's language (`locale`: the
 * interaction's; English by default). `nameOf` words the parameter an invalid-input or refused-parameter error names
 * (the router passes the commands' option names); by default it is shown as it is.
 */
export function describeUserError(error: UserFacingError, referenceId: string, nameOf: ParamNamer = (param) => param, locale?: string | null): string {
  const text = t(locale, messageKeyOf(error.identifier), errorValues(error, nameOf, locale));
  return `${text}\n${t(locale, 'error.reference', { referenceId })}`;
}

/** The generic apology for anything unexpected, in the member's language. */
export function describeUnexpectedError(referenceId: string, locale?: string | null): string {
  return `${t(locale, 'error.unexpected')}\n${t(locale, 'error.reference', { referenceId })}`;
}
