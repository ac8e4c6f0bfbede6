/**
 * Message store: creates and edits messages from (payload, files), applying Discord's v10 `attachments` semantics and
 * putting every uploaded file on the CDN.
 */
import type { APIMessage } from 'discord-api-types/v10';
import type { Cdn } from './cdn.js';
import type { SnowflakeGenerator } from './fixtures.js';
import { Errors, LOADING, type RestResult } from './rules.js';
import { checkComponentsV2 } from './components-v2.js';
import { IS_SPOILER, type Attachment, type EmulatedMessage, type RecordedFile, type SentMessage } from './types.js';

export interface CreateMessage {
  channelId: string;
  payload: SentMessage | undefined;
  files: readonly RecordedFile[];
  author: Record<string, unknown>;
  /** Message type: 0 default, 20 chat-input command reply, 23 context-menu reply. */
  type: number;
  flags?: number | undefined;
  extra?: Record<string, unknown> | undefined;
}

/** Every message that exists, keyed by id. */
export class MessageStore {
  readonly messages = new Map<string, EmulatedMessage>();
  private readonly cdn: Cdn;
  private readonly ids: SnowflakeGenerator;

  constructor(cdn: Cdn, ids: SnowflakeGenerator) {
    this.cdn = cdn;
    this.ids = ids;
  }

  /** Creates a message, or returns the 400 for an attachments array that names unknown ids. */
  create(input: CreateMessage): EmulatedMessage | RestResult {
    const attachments = this.buildAttachments(input.channelId, input.payload?.attachments, input.files, []);
    if (!Array.isArray(attachments)) return attachments;
    const payload = input.payload ?? {};
    const message = {
      id: this.ids.next(),
      type: input.type,
      channel_id: input.channelId,
      author: input.author,
      content: typeof payload.content === 'string' ? payload.content : '',
      embeds: payload.embeds ?? [],
      components: payload.components ?? [],
      attachments,
      mentions: [],
      mention_roles: [],
      mention_everyone: false,
      pinned: false,
      tts: Boolean(payload.tts),
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      flags: input.flags ?? payload.flags ?? 0,
      ...input.extra,
    } as unknown as APIMessage;
    const rejected = checkComponentsV2(message, undefined);
    if (rejected) return rejected;
    this.messages.set(message.id, message);
    return message;
  }

  /**
   * Applies an edit (PATCH semantics); clears the LOADING flag of a deferred response. `refuse` may turn the edit down
   * once the message as it would stand is known (a platform bug such as #7529, quirks.ts); nothing changes then.
   */
  edit(
    id: string,
    payload: SentMessage | undefined,
    files: readonly RecordedFile[],
    refuse?: (before: EmulatedMessage, after: EmulatedMessage) => RestResult | undefined,
  ): EmulatedMessage | RestResult {
    const current = this.messages.get(id);
    if (!current) return Errors.unknownMessage();
    const attachments = this.buildAttachments(current.channel_id, payload?.attachments, files, current.attachments);
    if (!Array.isArray(attachments)) return attachments;
    const next: Record<string, unknown> = { ...current, attachments, edited_timestamp: new Date().toISOString() };
    if (payload && 'content' in payload) next['content'] = payload.content ?? '';
    if (payload && 'embeds' in payload) next['embeds'] = payload.embeds ?? [];
    if (payload && 'components' in payload) next['components'] = payload.components ?? [];
    // Ephemerality cannot change after creation; other flags (suppress embeds, components v2) may.
    const keep = (current.flags ?? 0) & 64;
    const requested = payload?.flags ?? current.flags ?? 0;
    next['flags'] = ((requested & ~64) | keep) & ~LOADING;
    const message = next as unknown as APIMessage;
    const rejected = checkComponentsV2(message, current.flags) ?? refuse?.(current, message);
    if (rejected) return rejected;
    this.messages.set(id, message);
    return message;
  }

  delete(id: string): boolean {
    return this.messages.delete(id);
  }

  /**
   * v10 semantics: when `attachments` is given it lists everything that remains — existing ids are retained (their
   * `description` and `is_spoiler` changed when given), numeric placeholders refer to `files[n]` (`is_spoiler: true` flags the upload IS_SPOILER; a value that is not
   * a boolean or null is refused), anything else is dropped. Without it, existing attachments stay and all files are added.
   */
  private buildAttachments(
    channelId: string,
    entries: SentMessage['attachments'],
    files: readonly RecordedFile[],
    existing: readonly Attachment[],
  ): Attachment[] | RestResult {
    const byPlaceholder = new Map<string, RecordedFile>();
    files.forEach((file, index) => byPlaceholder.set(/^files\[(\d+)\]$/.exec(file.field)?.[1] ?? String(index), file));
    const used = new Set<RecordedFile>();
    const upload = (file: RecordedFile, entry: NonNullable<SentMessage['attachments']>[number]): Attachment => {
      used.add(file);
      const extra: Partial<Attachment> = {};
      if (typeof entry.description === 'string') extra.description = entry.description;
      if (typeof entry.title === 'string') extra.title = entry.title;
      // `is_spoiler` is kept as the attachment's IS_SPOILER flag (a SPOILER_ name gets it too: cdn.ts).
      if (entry.is_spoiler === true) extra.flags = IS_SPOILER;
      const filename = typeof entry.filename === 'string' ? entry.filename : file.filename;
      return this.cdn.store(this.ids.next(), `attachments/${channelId}`, file.bytes, filename, file.contentType, extra);
    };
    const result: Attachment[] = [];
    if (Array.isArray(entries)) {
      const badSpoiler = entries.findIndex((entry) => entry.is_spoiler !== undefined && entry.is_spoiler !== null && typeof entry.is_spoiler !== 'boolean');
      if (badSpoiler >= 0) return Errors.invalidForm(['attachments', String(badSpoiler), 'is_spoiler'], 'BASE_TYPE_BOOLEAN', 'Must be either true or false.');
      for (const entry of entries) {
        const id = String(entry.id);
        const kept = existing.find((a) => a.id === id);
        const file = byPlaceholder.get(id);
        // Since 2026-06-25 a kept attachment's description and IS_SPOILER flag may be edited (discord-api-docs#8429).
        if (kept) result.push(edited(kept, entry));
        else if (file) result.push(upload(file, entry));
        else return Errors.invalidForm(['attachments'], 'ATTACHMENT_NOT_FOUND', `Unknown attachment id ${id}.`);
      }
    } else {
      result.push(...existing);
    }
    for (const file of files) if (!used.has(file)) result.push(upload(file, {}));
    return result;
  }
}

/** A kept attachment with the `description` and `is_spoiler` an edit gives it (discord-api-docs#8429). */
function edited(kept: Attachment, entry: { description?: unknown; is_spoiler?: unknown }): Attachment {
  const out = { ...kept };
  if (typeof entry.description === 'string') out.description = entry.description;
  // IS_SPOILER is the only attachment flag the emulator sets.
  if (entry.is_spoiler === true) out.flags = IS_SPOILER;
  if (entry.is_spoiler === false) delete out.flags;
  return out;
}
