/**
 * Errors a member can act on. Each has a stable identifier and context; the catalogues (src/i18n/locales) turn it
 * into the message the member sees, in their language. Everything else is a bug or an outage and gets a generic apology with a reference id.
 */

import type { MessageKey } from './i18n/locales.js';
import { formatList, formatUsd, t, type MessageValues } from './i18n/translate.js';
import { errorMessageId, type UserErrorIdentifier } from './core/member-messages.js';
import type { Phrase, PhraseId, PhraseValue } from './core/phrase.js';

export type { UserErrorIdentifier };

/** Values the copy may use. */
export interface UserErrorContext {
  /**
   * Which request field (`outputCompression`) or other parameter was wrong. The copy words it through the naming
   * function given to describeUserError (the commands: the option the member typed, `compression`); a phrase names
   * something that is no parameter ("the images of that message") in the member's words.
   */
  param?: string | Phrase | undefined;
  /** What is allowed, as a phrase rendered in the member's language (a list of values: `literal(…)`). */
  allowed?: Phrase | undefined;
  /** Why, as a phrase rendered in the member's language (never internal text). */
  detail?: Phrase | undefined;
  /** The model a message names (its price is unknown), as it is. */
  model?: string | undefined;
  /** The roles a message names, as mentions (`<@&id>, <@&id>`). */
  roles?: string | undefined;
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
  /**
   * A failed job's prompt help that ran and was charged to the member's money limit (USD): the message says so
   * beside "you were not charged" for the images (issue 29).
   */
  promptHelpUsd?: number | undefined;
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

/** Words a parameter named in an error context. */
type ParamNamer = (param: string) => string;

/** `yes` when there is something to show: a non-empty text or list, a phrase (a literal one with tokens). */
function flag(value: string | readonly string[] | Phrase | undefined): 'yes' | 'no' {
  if (value === undefined) return 'no';
  const empty = typeof value === 'string' || isTokenList(value) ? value.length === 0 : 'literal' in value && value.literal.length === 0;
  return empty ? 'no' : 'yes';
}

/** Each phrase's message in the catalogues: a phrase without its English text does not compile. */
const phraseKeyOf = (id: PhraseId): PhraseId & MessageKey => id;

/**
 * A phrase in a member's language: its message with each value rendered first (numbers and tokens as they are,
 * lists joined as the language writes them, phrases in the same language).
 */
export function renderPhrase(p: Phrase, locale: string | null | undefined, nameOf: ParamNamer = (param) => param): string {
  if ('literal' in p) return formatList(locale, p.literal);
  const values = Object.fromEntries(
    Object.entries(p.values ?? {}).map(([name, value]) => [
      name,
      // A `setting` is a parameter (`compression`), worded as members know it, like the error's own `param`.
      name === 'setting' && typeof value === 'string' ? nameOf(value) : renderValue(value, locale, nameOf),
    ]),
  );
  return t(locale, phraseKeyOf(p.id), values);
}

function renderValue(value: PhraseValue, locale: string | null | undefined, nameOf: ParamNamer): string | number {
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (isTokenList(value)) return formatList(locale, value);
  return renderPhrase(value, locale, nameOf);
}

const isTokenList = (value: readonly string[] | Phrase): value is readonly string[] => Array.isArray(value);

/**
 * The values every error message may use (its catalogue entry, `error.<identifier>`, picks the ones it needs).
 * Optional parts go in with a `has…` flag the message selects on, so each language words both cases itself.
 */
function errorValues(error: UserFacingError, nameOf: ParamNamer, locale: string | null | undefined): MessageValues {
  const c = error.context;
  const resetsAt = c.resetsAt === undefined ? t(locale, 'error.soon') : `<t:${Math.ceil(c.resetsAt / 1000)}:R>`;
  const models = (c.models ?? []).slice(0, 10).map((m) => `\`${m}\``);
  const text = (p: Phrase | undefined): string => (p === undefined ? '' : renderPhrase(p, locale, nameOf));
  return {
    hasParam: flag(c.param),
    param: c.param === undefined ? '' : typeof c.param === 'string' ? nameOf(c.param) : text(c.param),
    hasDetail: flag(c.detail),
    detail: text(c.detail),
    hasModel: flag(c.model),
    model: c.model ?? '',
    hasRoles: flag(c.roles),
    roles: c.roles ?? '',
    hasAllowed: flag(c.allowed),
    allowed: text(c.allowed),
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
const messageKeyOf = (identifier: UserErrorIdentifier): ReturnType<typeof errorMessageId> & MessageKey => errorMessageId(identifier);

/**
 * The member-facing text for an error, with its reference id, in the member's language (`locale`: the
 * interaction's; English by default). `nameOf` words the parameter an invalid-input or refused-parameter error names
 * (the router passes the commands' option names); by default it is shown as it is.
 */
export function describeUserError(error: UserFacingError, referenceId: string, nameOf: ParamNamer = (param) => param, locale?: string | null): string {
  const text = t(locale, messageKeyOf(error.identifier), errorValues(error, nameOf, locale));
  const charged =
    error.context.promptHelpUsd === undefined ? '' : `\n${t(locale, 'error.promptHelpCharged', { usd: formatUsd(locale, error.context.promptHelpUsd) })}`;
  return `${text}${charged}\n${t(locale, 'error.reference', { code: error.identifier, ref: errorRef(referenceId) })}`;
}

/** The generic apology for anything unexpected, in the member's language. */
export function describeUnexpectedError(referenceId: string, locale?: string | null): string {
  return `${t(locale, 'error.unexpected')}\n${t(locale, 'error.reference', { code: 'unexpected', ref: errorRef(referenceId) })}`;
}

/**
 * The short reference an error card shows admins instead of a snowflake: the interaction id's last six base-36
 * digits (`K3F9QX`). The router logs it with the error (`ref`), so an admin can find the line a member quotes.
 */
export function errorRef(interactionId: string): string {
  const digits = /^\d+$/.test(interactionId) ? BigInt(interactionId).toString(36) : interactionId;
  return digits.slice(-6).toUpperCase().padStart(6, '0');
}
