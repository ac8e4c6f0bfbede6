/**
 * Platform rules and the error bodies Discord answers with (discord-platform.md §1.3, §1.4, §1.6, §6.6).
 */
import type { RecordedFile } from './types.js';

/** What a route answers. */
export interface RestResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string> | undefined;
}

/** Interaction types (PING 1 … MODAL_SUBMIT 5). */
export const InteractionKind = { ping: 1, command: 2, component: 3, autocomplete: 4, modalSubmit: 5 } as const;

export const EPHEMERAL = 64;
export const LOADING = 128;
export const MAX_CONTENT = 2000;
const CALLBACK_MESSAGE_FLAGS = 4 | 64 | 4096 | 8192 | 32768;
export const MAX_FILES = 10;

function error(status: number, code: number, message: string, errors?: unknown): RestResult {
  return { status, body: errors === undefined ? { message, code } : { message, code, errors } };
}

function fieldError(path: string[], code: string, message: string): unknown {
  const leaf: Record<string, unknown> = { _errors: [{ code, message }] };
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), leaf);
}

export const Errors = {
  notFound: () => error(404, 0, '404: Not Found'),
  unauthorized: () => error(401, 0, '401: Unauthorized'),
  unknownApplication: () => error(404, 10002, 'Unknown Application'),
  unknownGuild: () => error(404, 10004, 'Unknown Guild'),
  unknownChannel: () => error(404, 10003, 'Unknown Channel'),
  unknownMessage: () => error(404, 10008, 'Unknown Message'),
  unknownUser: () => error(404, 10013, 'Unknown User'),
  unknownWebhook: () => error(404, 10015, 'Unknown Webhook'),
  unknownInteraction: () => error(404, 10062, 'Unknown interaction'),
  alreadyAcknowledged: () => error(400, 40060, 'Interaction has already been acknowledged.'),
  invalidWebhookToken: () => error(401, 50027, 'Invalid Webhook Token'),
  missingPermissions: () => error(403, 50013, 'Missing Permissions'),
  tooLarge: () => error(413, 40005, 'Request entity too large'),
  emptyMessage: () => error(400, 50006, 'Cannot send an empty message'),
  invalidBody: (code: number, message: string) => error(400, code, message),
  invalidForm: (path: string[], code: string, message: string) => error(400, 50035, 'Invalid Form Body', fieldError(path, code, message)),
};

/**
 * Which initial callback types suit an interaction (§1.4): 6/7 only for components and component-born modal submits,
 * 9 for anything but a modal submit, 8 only (and exclusively) for autocomplete.
 */
export function allowedCallbackTypes(kind: number, fromComponent: boolean): readonly number[] {
  switch (kind) {
    case InteractionKind.autocomplete:
      return [8];
    case InteractionKind.command:
      return [4, 5, 9];
    case InteractionKind.component:
      return [4, 5, 6, 7, 9];
    case InteractionKind.modalSubmit:
      return fromComponent ? [4, 5, 6, 7] : [4, 5];
    default:
      return [1];
  }
}

/** Checks a callback's type and flags against the interaction; undefined when acceptable. */
export function checkCallback(kind: number, fromComponent: boolean, body: { type?: unknown; data?: { flags?: unknown } }): RestResult | undefined {
  const type = Number(body.type);
  if (!allowedCallbackTypes(kind, fromComponent).includes(type)) {
    return Errors.invalidForm(['type'], 'INTERACTION_RESPONSE_TYPE_INVALID', `Callback type ${type} is not valid for interaction type ${kind}.`);
  }
  const flags = Number(body.data?.flags ?? 0);
  // Callback messages may only set SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE, IS_COMPONENTS_V2 (§1.4).
  if ((type === 4 || type === 7) && (flags & ~CALLBACK_MESSAGE_FLAGS) !== 0) {
    return Errors.invalidForm(['data', 'flags'], 'MESSAGE_FLAGS_INVALID', `Flags ${flags} cannot be set on a callback message.`);
  }
  // On a deferred response "the only valid message flag … is EPHEMERAL" (§1.4).
  if (type === 5 && (flags & ~EPHEMERAL) !== 0) {
    return Errors.invalidForm(['data', 'flags'], 'MESSAGE_FLAGS_INVALID', 'Only EPHEMERAL may be set on a deferred response.');
  }
  return undefined;
}

/**
 * Message limits shared by every route that creates or edits a message: ≤ 2000 characters of content, ≤ 10 files,
 * each file ≤ the size limit (413/40005, per attachment since 2025-04-03).
 */
export function checkMessage(payload: { content?: unknown } | undefined, files: readonly RecordedFile[], sizeLimit: number): RestResult | undefined {
  const content = payload?.content;
  if (typeof content === 'string' && content.length > MAX_CONTENT) {
    return Errors.invalidForm(['content'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_CONTENT} or fewer in length.`);
  }
  if (files.length > MAX_FILES) {
    return Errors.invalidForm(['files'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_FILES} or fewer in length.`);
  }
  if (files.some((f) => f.bytes.length > sizeLimit)) return Errors.tooLarge();
  return undefined;
}

/** True when a create-message payload would produce an empty message (50006). */
export function isEmptyMessage(payload: Record<string, unknown> | undefined, files: readonly RecordedFile[]): boolean {
  if (files.length > 0) return false;
  const nonEmpty = (v: unknown) => (typeof v === 'string' ? v.length > 0 : Array.isArray(v) ? v.length > 0 : false);
  return !['content', 'embeds', 'components', 'sticker_ids', 'attachments'].some((k) => nonEmpty(payload?.[k]));
}
