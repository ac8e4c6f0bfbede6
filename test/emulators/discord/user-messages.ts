/**
 * Messages other people post, for context-menu targets: a member's message with files, embeds or (for another bot's
 * message) Components V2, and a forwarded message carrying its original as a message snapshot. Discord puts these
 * in a context-menu interaction's resolved message as they are, and so does the emulator.
 *
 * @see https://discord.com/developers/docs/resources/message#message-snapshot-object
 * @see https://discord.com/developers/docs/components/reference#component-object-component-types (Components V2)
 */
import { ComponentType, type APIEmbed, type APIMessageTopLevelComponent } from 'discord-api-types/v10';
import { userJson } from './fixtures.js';
import type { EmulatorState } from './state.js';
import { IS_SPOILER, type Attachment, type EmulatedMessage, type UserFixture } from './types.js';

/** IS_COMPONENTS_V2: the message's components are its whole content (no `content`, no embeds). */
const IS_COMPONENTS_V2 = 1 << 15;
/** HAS_SNAPSHOT: the message forwards another (message_reference type 1, FORWARD). */
const HAS_SNAPSHOT = 1 << 14;
const FORWARD = 1;

/** What a member's (or another bot's) message carries besides its text and files. */
export interface UserMessageExtras {
  /** Embeds as Discord serves them (a link's preview, a bot's embed): `image` and `thumbnail` URLs are kept as given. */
  embeds?: APIEmbed[] | undefined;
  /**
   * Components as Discord serves them. Any component other than an action row makes it a Components V2 message
   * (flag 1 << 15), which Discord allows no content or embeds.
   */
  components?: APIMessageTopLevelComponent[] | undefined;
}

/** A message posted by `author` (e.g. the target of a context-menu command); its files are re-hosted as message attachments. */
export function createUserMessage(
  state: EmulatorState,
  channelId: string,
  author: UserFixture,
  content: string,
  attachments: Attachment[],
  extras: UserMessageExtras = {},
): EmulatedMessage {
  const components = extras.components ?? [];
  const v2 = components.some((component) => component.type !== ComponentType.ActionRow);
  if (v2 && (content !== '' || (extras.embeds?.length ?? 0) > 0)) {
    throw new Error('Discord emulator: a Components V2 message has no content or embeds (Discord answers 50035)');
  }
  const files = attachments.map((a, index) => {
    const bytes = state.cdn.bytes(a.id);
    if (!bytes) throw new Error(`Discord emulator: attachment ${a.id} is not on the emulator CDN; use uploadAttachment()`);
    return { field: `files[${index}]`, filename: a.filename, contentType: a.content_type ?? 'application/octet-stream', bytes };
  });
  // A file the member marked as a spoiler stays one (its IS_SPOILER flag), as the client's upload says is_spoiler.
  const uploads = attachments.map((a, index) => ({ id: String(index), ...(((a.flags ?? 0) & IS_SPOILER) !== 0 ? { is_spoiler: true } : {}) }));
  return create(state, channelId, author, content, { files, uploads }, v2 ? IS_COMPONENTS_V2 : 0, { embeds: extras.embeds ?? [], components });
}

/**
 * `author` forwards `source` to `channelId`: a message of its own with no content, whose `message_snapshots[0].message`
 * holds the original's content, attachments, embeds and components, and whose `message_reference` (type FORWARD)
 * points at the original.
 */
export function forwardMessage(state: EmulatorState, source: EmulatedMessage, channelId: string, author: UserFixture): EmulatedMessage {
  // The snapshot holds the original as Discord serves it (its media resolved, and #8277's hidden attachments).
  const { type, content, embeds, attachments, components, flags, mentions, mention_roles, timestamp, edited_timestamp } = state.served(source);
  const snapshot = { type, content, embeds, attachments, components, flags, mentions, mention_roles, timestamp, edited_timestamp };
  const guildId = state.guildOf(source.channel_id)?.id;
  const reference = { type: FORWARD, message_id: source.id, channel_id: source.channel_id, ...(guildId === undefined ? {} : { guild_id: guildId }) };
  return create(state, channelId, author, '', { files: [], uploads: [] }, HAS_SNAPSHOT, {
    message_reference: reference,
    message_snapshots: [{ message: snapshot }],
  });
}

function create(
  state: EmulatorState,
  channelId: string,
  author: UserFixture,
  content: string,
  { files, uploads }: { files: { field: string; filename: string; contentType: string; bytes: Buffer }[]; uploads: { id: string; is_spoiler?: boolean }[] },
  flags: number,
  fields: Record<string, unknown>,
): EmulatedMessage {
  if (!state.channelJson(channelId)) throw new Error(`Discord emulator: unknown channel ${channelId}`);
  const guildId = state.guildOf(channelId)?.id;
  const created = state.messages.create({
    channelId,
    payload: { content, attachments: uploads },
    files,
    author: userJson(author),
    type: 0,
    flags,
    extra: { ...fields, ...(guildId === undefined ? {} : { guild_id: guildId }) },
  });
  if (!('id' in created)) throw new Error(`Discord emulator: could not create message: ${JSON.stringify(created.body)}`);
  return created;
}
