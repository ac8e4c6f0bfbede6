/**
 * Real Discord's public bugs and surprises that its documents do not describe, played by the emulator so that the
 * bot is tested against Discord as it is. All are on by default; a test may turn one off (`quirks` option) to show
 * that the documented behaviour works too.
 *
 * - `cv2EditUploads`, discord/discord-api-docs#7529 (open, "PATCHing with CV2 breaks media uploads"): an edit whose
 *   Components V2 media gallery or file component references a file uploaded by that same request
 *   (`attachment://name`) is refused with 400 "unfurled media attachment not found". It bites PATCH `@original`, a
 *   message edit (PATCH a follow-up, callback type 7) and the first follow-up after a type-5 defer (an edit of the
 *   loading message, below). A new message with the same payload works (type-4 response, a later follow-up, a channel
 *   message), and so does a reference to an attachment the message already had.
 * - `hiddenAttachments`, discord/discord-api-docs#8277 (closed as intended; documented by PR #8279): attachments that
 *   a message's components or embeds reference are left out of its `attachments` array, in every answer that carries
 *   the message (REST answers, a component interaction's `message`, a context-menu target). They appear only in the
 *   media items, which Discord fills in (`url`, `proxy_url`, `width`, `height`, `content_type`, and `attachment_id`
 *   since PR #7611).
 * - `followUpEditsLoading` (discord-platform.md §1.5, deprecated but live): a follow-up sent while the type-5 "thinking"
 *   message is still loading edits that message instead of creating one, ignoring the ephemeral flag.
 *
 * Resolving `attachment://` references into media items is not a quirk: Discord always serves them resolved.
 */
import type { APIMessage } from 'discord-api-types/v10';
import { allComponents } from './components-v2.js';
import { Errors, type RestResult } from './rules.js';
import type { Attachment, DiscordQuirks } from './types.js';

export const REAL_DISCORD: DiscordQuirks = { cv2EditUploads: true, hiddenAttachments: true, followUpEditsLoading: true };

const ATTACHMENT_SCHEME = 'attachment://';

interface MediaHolder {
  type?: number;
  items?: { media?: { url?: string } }[];
  file?: { url?: string };
}

/** #7529: the 400 for an edit whose gallery or file component shows a file this same request uploaded. */
export function refuseNewUploadReference(before: APIMessage, after: APIMessage): RestResult | undefined {
  const existing = new Set(before.attachments.map((a) => a.id));
  const uploaded = new Set(after.attachments.filter((a) => !existing.has(a.id)).map((a) => a.filename));
  if (uploaded.size === 0) return undefined;
  const urls = (allComponents(after.components ?? []) as MediaHolder[]).flatMap((c) => [
    ...(c.type === 12 ? (c.items ?? []).map((item) => item.media?.url) : []),
    c.type === 13 ? c.file?.url : undefined,
  ]);
  const hit = urls.some((url) => url?.startsWith(ATTACHMENT_SCHEME) === true && uploaded.has(url.slice(ATTACHMENT_SCHEME.length)));
  return hit ? Errors.invalidForm(['components'], 'UNFURLED_MEDIA_ATTACHMENT_NOT_FOUND', 'Unfurled media attachment not found.') : undefined;
}

/**
 * A message as Discord serves it: `attachment://` references resolved into media items (and embed images), and with
 * `hiddenAttachments` (#8277) the attachments they reference left out of `attachments`.
 */
export function servedMessage(message: APIMessage, quirks: DiscordQuirks): APIMessage {
  const byName = new Map(message.attachments.map((a) => [a.filename, a]));
  const used = new Set<string>();
  const resolve = (url: unknown): Attachment | undefined => {
    if (typeof url !== 'string' || !url.startsWith(ATTACHMENT_SCHEME)) return undefined;
    const attachment = byName.get(url.slice(ATTACHMENT_SCHEME.length));
    if (attachment) used.add(attachment.id);
    return attachment;
  };
  const components = (message.components ?? []).map((c) => resolveComponent(c, resolve));
  const embeds = message.embeds.map((embed) => {
    const image = embedMedia(embed.image, resolve);
    const thumbnail = embedMedia(embed.thumbnail, resolve);
    return { ...embed, ...(image ? { image } : {}), ...(thumbnail ? { thumbnail } : {}) };
  });
  const attachments = quirks.hiddenAttachments ? message.attachments.filter((a) => !used.has(a.id)) : message.attachments;
  return { ...message, components, embeds, attachments };
}

type Resolver = (url: unknown) => Attachment | undefined;

/** A media item as Discord fills it in for an attachment. */
function mediaOf(media: Record<string, unknown>, attachment: Attachment | undefined): Record<string, unknown> {
  if (!attachment) return media;
  const { url, proxy_url, width, height, content_type, id } = attachment;
  return { ...media, url, proxy_url, width: width ?? null, height: height ?? null, content_type, attachment_id: id, loading_state: 2 };
}

function resolveComponent<T>(component: T, resolve: Resolver): T {
  const c = component as Record<string, unknown> & MediaHolder & { components?: unknown[]; accessory?: unknown; media?: { url?: string } };
  const out: Record<string, unknown> = { ...c };
  if (Array.isArray(c.components)) out['components'] = c.components.map((child) => resolveComponent(child, resolve));
  if (c.accessory !== undefined) out['accessory'] = resolveComponent(c.accessory, resolve);
  if (c.type === 12 && Array.isArray(c.items)) out['items'] = c.items.map((item) => ({ ...item, media: mediaOf({ ...item.media }, resolve(item.media?.url)) }));
  if (c.type === 11 && c.media) out['media'] = mediaOf({ ...c.media }, resolve(c.media.url));
  if (c.type === 13 && c.file) out['file'] = mediaOf({ ...c.file }, resolve(c.file.url));
  return out as T;
}

function embedMedia<T extends { url: string } | undefined>(media: T, resolve: Resolver): T | undefined {
  const attachment = resolve(media?.url);
  if (!media || !attachment) return undefined;
  return { ...media, url: attachment.url, proxy_url: attachment.proxy_url, width: attachment.width, height: attachment.height };
}
