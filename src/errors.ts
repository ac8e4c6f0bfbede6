/**
 * Errors a member can act on. Each has a stable identifier and context; the copy table turns it into the
 * message the member sees. Everything else is a bug or an outage and gets a generic apology with a reference id.
 */

/** Stable identifiers of member-facing errors. */
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
  | 'promptHelp.off'
  | 'promptHelp.failed'
  | 'settings.channelExcept'
  | 'settings.moderationOff'
  | 'settings.moderationRoles';

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
export const usd = (value: number | undefined): string => `$${(value ?? 0) >= 0.01 || value === 0 ? (value ?? 0).toFixed(2) : (value ?? 0).toFixed(3)}`;

const relative = (ms: number | undefined): string => (ms === undefined ? 'soon' : `<t:${Math.ceil(ms / 1000)}:R>`);

/** Words a parameter named in an error context. */
type ParamNamer = (param: string) => string;

const COPY: Record<UserErrorIdentifier, (c: UserErrorContext, nameOf: ParamNamer) => string> = {
  'input.invalid': (c, nameOf) =>
    `That ${c.param === undefined ? 'input' : nameOf(c.param)} doesn't work${c.detail ? `: ${c.detail}` : ''}.${c.allowed ? ` Allowed: ${c.allowed}.` : ''}`,
  'input.attachmentInvalid': (c) => `I couldn't use ${c.param ?? 'that attachment'}: ${c.detail ?? 'it is not a PNG, JPEG or WebP image'}.`,
  'input.noImages': () => 'That message has no PNG, JPEG or WebP images to edit. Attach an image, or use `/edit`.',
  'input.moderationNotAllowed': () =>
    '`moderation:low` is only available in age-restricted channels or to members with Manage Server. Leave it out to use the default filter.',
  'quota.exceeded': (c) =>
    `You've used your images for now: ${c.remaining ?? 0} of ${c.limit ?? 0} left${c.requested !== undefined ? `, and this needs ${c.requested}` : ''}. Your quota resets ${relative(c.resetsAt)}.`,
  'spend.exceeded': (c) =>
    `This request would cost about ${usd(c.estimateUsd)}, and only ${usd(c.remainingUsd)} of your ${usd(c.limitUsd)} spending limit is left. Try fewer images, a smaller size or a lower quality, or wait: your limit resets ${relative(c.resetsAt)}.`,
  'spend.unpriced': (c) =>
    `This server limits what members spend, and the cost of ${c.detail === undefined ? 'this model' : `\`${c.detail}\``} isn't known, so I can't check it against your limit. Pick another model with \`model\`, or ask a server admin.`,
  'quota.blocked': () => "Image generation isn't enabled for you on this server. Ask a server admin if you think that's a mistake.",
  'queue.full': (c) => `You already have ${c.limit ?? 'too many'} images waiting. Let some finish, then try again.`,
  'permission.manageServer': () => 'Only members with the **Manage Server** permission can do that.',
  'permission.confirmCost': () => 'Only the member who asked for these images can confirm or cancel them.',
  'permission.deleteResult': () => 'Only the member who asked for these images (or someone with Manage Messages) can delete them.',
  'gateway.contentRejected': () => "The image service's safety system declined this request. Try rewording the prompt or using different images.",
  'gateway.unknownModel': (c) =>
    `That model isn't available.${
      c.models && c.models.length > 0
        ? ` Try one of: ${c.models
            .slice(0, 10)
            .map((m) => `\`${m}\``)
            .join(', ')}.`
        : ''
    }`,
  'gateway.badParameter': (c, nameOf) =>
    `The image service didn't accept ${c.param ? `\`${nameOf(c.param)}\`` : 'one of the options'}.${c.allowed ? ` Allowed: ${c.allowed}.` : ' Try the default for it.'}`,
  'gateway.transparencyRefused': () =>
    "This model can't make transparent backgrounds. Leave `background` unset, or pick another model with `model`. You were not charged.",
  'gateway.busy': () => 'The image service is busy right now. Please try again in a minute.',
  'gateway.timedOut': () => 'The image took too long to make. Try a smaller size, a lower quality or fewer images. You were not charged.',
  'gateway.unavailable': () => "Image generation isn't available right now. The bot's operator has been notified.",
  'gateway.failure': () => 'The image service ran into a problem. Please try again shortly. You were not charged.',
  'gateway.endpointMissing': () => "This image service doesn't offer that feature (for example editing). Try `/imagine` instead.",
  'storage.unavailable': () => "I can't check quotas right now, so I can't take new requests. Please try again shortly.",
  'storage.corrupt': () => "Your quota record can't be read, so I can't take requests from you for now. Ask a server admin to run `/quota reset` for you.",
  'job.cancelled': () => 'The bot restarted before your images were ready. You were not charged; please try again.',
  'job.unacknowledged': () => "Discord didn't confirm your command, so I stopped it. You were not charged; please try again.",
  'button.expired': () => 'This button has expired. Run the command again.',
  'delivery.failed': () => "I made your images but couldn't post them here. You were not charged.",
  'history.unknownJob': () => "That job isn't in your history here. Pick one from the list, or see `/history list`.",
  'history.resultGone': () => "That result's images are gone (the message was deleted) or I can't reach them anymore.",
  'settings.modelNotAllowed': (c) => `This server allows only these models: ${c.allowed ?? 'none'}. Pick one of them with \`model\`.`,
  'settings.tooMany': (c) => `This server allows at most ${c.limit ?? 1} image${c.limit === 1 ? '' : 's'} per request. Lower \`count\`.`,
  'promptHelp.off': () => 'Prompt help is turned off here.',
  'promptHelp.failed': () => "The prompt helper couldn't describe this image right now. Try again in a moment.",
  'settings.channelOnly': (c) => `Image generation isn't available in this channel. You can use it in ${c.channels ?? 'the channels the admins chose'}.`,
  'settings.moderationOff': () => "This server doesn't allow `moderation:low`. Leave it out to use the default filter.",
  'settings.moderationRoles': (c) =>
    `\`moderation:low\` is only available to members with ${c.detail ?? 'the roles the admins chose'} on this server. Leave it out to use the default filter.`,
  'settings.channelExcept': (c) => `Image generation isn't available in this channel. You can use it anywhere except ${c.channels ?? 'a few channels'}.`,
};

/**
 * The member-facing text for an error, with its reference id. `nameOf` words the parameter an invalid-input or
 * refused-parameter error names (the router passes the commands' option names); by default it is shown as it is.
 */
export function describeUserError(error: UserFacingError, referenceId: string, nameOf: ParamNamer = (param) => param): string {
  return `${COPY[error.identifier](error.context, nameOf)}\n-# Reference: \`${referenceId}\``;
}

/** The generic apology for anything unexpected. */
export function describeUnexpectedError(referenceId: string): string {
  return `Sorry, something went wrong on my side. Please try again.\n-# Reference: \`${referenceId}\``;
}
