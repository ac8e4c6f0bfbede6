/**
 * One id space for what members read (issue 30): every member message is a key of the catalogues
 * (src/i18n/locales). A refusal's error is `error.<identifier>` (UserFacingError, src/errors.ts), the words inside it
 * are phrases (phrase.ts), and both are declared here in the core, so no room has to reach up for them; errors.ts,
 * which knows the catalogues, holds each to an English message (an id without one does not compile).
 */
import type { PhraseId } from './phrase.js';

/** Stable identifiers of member-facing errors; each has its message in the catalogues, `error.<identifier>`. */
export const USER_ERROR_IDS = [
  'input.invalid',
  'input.attachmentInvalid',
  'input.noImages',
  'input.moderationNotAllowed',
  'input.referencesNeedEdits',
  'quota.exceeded',
  'quota.blocked',
  'spend.exceeded',
  'spend.unpriced',
  'moderation.paused',
  'moderation.pausedNow',
  'queue.full',
  'permission.manageServer',
  'permission.deleteResult',
  'delete.expired',
  'permission.confirmCost',
  'permission.revealSpoiler',
  'expression.notInServer',
  'expression.botNotInServer',
  'expression.memberPermission',
  'expression.botPermission',
  'expression.moderationLow',
  'expression.invalid',
  'expression.tooLarge',
  'expression.emojiSlotsFull',
  'expression.stickerSlotsFull',
  'expression.discordRefused',
  'expression.unavailable',
  'favorite.tooFast',
  'favorite.removeTooFast',
  'favorite.notYours',
  'preset.badName',
  'preset.empty',
  'preset.full',
  'preset.notFound',
  'preset.suffixTooLong',
  'preset.tooFast',
  'preset.tooManyImages',
  'gateway.contentRejected',
  'gateway.unknownModel',
  'gateway.badParameter',
  'gateway.transparencyRefused',
  'gateway.busy',
  'gateway.timedOut',
  'gateway.cutOff',
  'gateway.unavailable',
  'gateway.failure',
  'gateway.endpointMissing',
  'gateway.imageTooLarge',
  'storage.unavailable',
  'storage.corrupt',
  'job.cancelled',
  'job.unacknowledged',
  'button.expired',
  'delivery.failed',
  'delivery.svgRefused',
  'history.unknownJob',
  'history.resultGone',
  'show.noAttachFiles',
  'show.ageRestrictedOnly',
  'settings.modelNotAllowed',
  'settings.tooMany',
  'settings.channelOnly',
  'settings.channelExcept',
  'settings.threadUnknown',
  'settings.moderationOff',
  'settings.moderationRoles',
  'promptHelp.off',
  'promptHelp.failed',
  'describe.running',
  'describe.cooldown',
  'describe.busy',
  'describe.limit',
  'memory.busy',
] as const;

/** A member-facing error's stable identifier (what the error reference line shows as its code). */
export type UserErrorIdentifier = (typeof USER_ERROR_IDS)[number];

/** The catalogue key of an error's message. */
export const errorMessageId = (identifier: UserErrorIdentifier): `error.${UserErrorIdentifier}` => `error.${identifier}`;

/** Any member message's id: an error's message or a phrase, both keys of the same catalogues. */
export type MemberMessageId = ReturnType<typeof errorMessageId> | PhraseId;
