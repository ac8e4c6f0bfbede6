/**
 * Files posted as spoilers (issue 32): each new upload's entry in the message's `attachments` array says
 * `is_spoiler: true`, which Discord stores as the attachment's IS_SPOILER flag. That is the documented way; the old
 * SPOILER_ file-name prefix is no longer used for it (clients and libraries read the flag, and Discord sets it on a
 * SPOILER_ name only for older uploaders), so the files keep their plain names, also once a card is revealed.
 * discord.js writes no `is_spoiler` of its own, so it is added to the body it resolves.
 * @see https://discord.com/developers/docs/resources/message#attachment-object-attachment-flags
 */
import { MessagePayload, type MessageCreateOptions, type MessageTarget } from 'discord.js';

/** An `attachments` entry as a message body carries it: a new upload's is its `files[n]` index, written in digits. */
interface AttachmentEntry {
  id?: unknown;
  is_spoiler?: boolean | null;
}

/** Marks every new upload of `body` (an `attachments` entry naming a `files[n]` index) as a spoiler when `spoiler`. */
export function flagSpoilers(body: unknown, spoiler: boolean): void {
  if (!spoiler || typeof body !== 'object' || body === null || !('attachments' in body) || !Array.isArray(body.attachments)) return;
  for (const entry of body.attachments as AttachmentEntry[]) {
    if (/^\d+$/.test(String(entry.id))) entry.is_spoiler = true;
  }
}

/** A message for `target` (a channel the bot posts in, or a direct message) with its uploads flagged as spoilers when `spoiler`. */
export function spoilerMessage(target: MessageTarget, options: MessageCreateOptions, spoiler: boolean): MessagePayload {
  const payload = MessagePayload.create(target, options).resolveBody();
  flagSpoilers(payload.body, spoiler);
  return payload;
}
