/**
 * The images a message carries, wherever Discord puts them: its attachments, its embeds' images and thumbnails, its
 * Components V2 media galleries (inside containers too), and the same in the message it forwards (its message
 * snapshot). Pure over the message as discord.js gives it (or as a REST answer carries it, through
 * {@link carrierOf}); which hosts the bot may download from is the predicate it is given (DISCORD_CDN_HOSTS), so an
 * image anywhere else is counted, never fetched.
 *
 * Reading the galleries is not optional: Discord leaves the files a message's components (or embeds) show out of its
 * `attachments` array (discord/discord-api-docs#8277, closed as intended), so the bot's own result cards come back
 * with `attachments: []` in every answer and interaction, their images only in the media items.
 *
 * @see https://discord.com/developers/docs/resources/message#message-snapshot-object
 * @see https://discord.com/developers/docs/components/reference#media-gallery
 */
import {
  ComponentType,
  type APIComponentInContainer,
  type APIEmbed,
  type APIMessage,
  type APIMessageTopLevelComponent,
  type APIUnfurledMediaItem,
  type Attachment,
} from 'discord.js';
import type { AttachmentRef } from '../core/jobs.js';

const IMAGE_TYPES = /^image\/(png|jpeg|jpg|webp)\b/i;
/** Discord's attachment flag IS_SPOILER (AttachmentFlags.IsSpoiler). */
const IS_SPOILER = 1 << 3;

/**
 * Whether an attachment was posted as a spoiler: Discord's IS_SPOILER flag (`flags` as a number, from a REST answer,
 * or discord.js's `spoiler`, which reads it), or the older SPOILER_ name, which Discord flags too.
 */
export function isSpoilerAttachment(file: { flags?: number | undefined; spoiler?: boolean | undefined; name: string }): boolean {
  return file.spoiler === true || ((file.flags ?? 0) & IS_SPOILER) !== 0 || file.name.startsWith('SPOILER_');
}
const IMAGE_EXTENSIONS = /\.(png|jpe?g|webp)$/i;

/** Whether a file looks like a PNG, JPEG or WebP image (by content type, else by extension). */
export function looksLikeImage(file: Pick<Attachment, 'contentType' | 'name'>): boolean {
  return file.contentType ? IMAGE_TYPES.test(file.contentType) : IMAGE_EXTENSIONS.test(file.name);
}

/** A message or a forwarded message's snapshot: the fields of discord.js's Message this reads. */
export interface ImageCarrier {
  attachments: ReadonlyMap<
    string,
    Pick<Attachment, 'id' | 'url' | 'proxyURL' | 'name' | 'size' | 'contentType' | 'width' | 'height'> & { readonly spoiler?: boolean | undefined }
  >;
  embeds: readonly { readonly data: Readonly<APIEmbed> }[];
  components: readonly { toJSON(): APIMessageTopLevelComponent }[];
}

/** A message, with the messages it forwards (discord.js Message). */
export interface SourceMessage extends ImageCarrier {
  messageSnapshots?: ReadonlyMap<string, ImageCarrier> | undefined;
}

/** What {@link findMessageImages} found. */
export interface MessageImages {
  /** The images to download, in the message's order (its own, then the forwarded message's), each once. */
  images: AttachmentRef[];
  /** Attachments and embedded media that are not PNG, JPEG or WebP images. */
  notImages: number;
  /** Images on hosts the bot may not download from. */
  elsewhere: number;
}

/** One image-like item before it is judged: Discord declares a size for attachments only. */
interface Candidate {
  /** Ids that make two items the same one (a gallery item showing an attachment). */
  ids: string[];
  /** The item's URL, then Discord's proxy of it (for an embed of another site, on Discord's media proxy). */
  urls: (string | undefined)[];
  name?: string | undefined;
  size?: number | undefined;
  contentType?: string | null | undefined;
  width?: number | null | undefined;
  height?: number | null | undefined;
  /** Posted as a spoiler: the attachment's flag or name, or its gallery item's `spoiler`. */
  spoiler?: boolean | undefined;
}

/** The images of `message`; `isAllowedUrl` says which URLs the bot may download (the first allowed one is used). */
export function findMessageImages(message: SourceMessage, isAllowedUrl: (url: string) => boolean): MessageImages {
  const found: MessageImages = { images: [], notImages: 0, elsewhere: 0 };
  const seen = new Set<string>();
  const carriers = [message, ...(message.messageSnapshots?.values() ?? [])];
  for (const candidate of carriers.flatMap(candidatesOf)) {
    const urls = candidate.urls.filter((url): url is string => url !== undefined && url !== '');
    // Signed CDN URLs differ in their query from one copy to the next; the path names the file.
    const keys = [...candidate.ids, ...urls.map(withoutQuery)];
    if (keys.some((key) => seen.has(key))) continue;
    for (const key of keys) seen.add(key);
    const url = urls.find(isAllowedUrl);
    const name = candidate.name ?? fileNameOf(url ?? urls[0] ?? '');
    if (!looksLikeImage({ contentType: candidate.contentType ?? null, name })) found.notImages++;
    else if (url === undefined) found.elsewhere++;
    else found.images.push(refOf(candidate, url, name));
  }
  return found;
}

function candidatesOf(carrier: ImageCarrier): Candidate[] {
  const attachments = [...carrier.attachments.values()].map((a): Candidate => ({
    ids: [a.id],
    urls: [a.url, a.proxyURL],
    name: a.name,
    size: a.size,
    contentType: a.contentType,
    width: a.width,
    height: a.height,
    spoiler: isSpoilerAttachment(a),
  }));
  const embedded = carrier.embeds.flatMap(({ data }) => [data.image, data.thumbnail]).filter((asset) => asset?.url !== undefined);
  const embeds = embedded.map((asset): Candidate => ({ ids: [], urls: [asset?.url, asset?.proxy_url], width: asset?.width, height: asset?.height }));
  const gallery = galleryItems(carrier.components.map((c) => c.toJSON())).map(({ media, spoiler }): Candidate => ({
    ids: media.attachment_id === undefined ? [] : [media.attachment_id],
    urls: [media.url, media.proxy_url],
    contentType: media.content_type,
    width: media.width,
    height: media.height,
    spoiler,
  }));
  return [...attachments, ...embeds, ...gallery];
}

/** The items of every media gallery, at the top level or in a container: each one's media, and whether it is a spoiler. */
function galleryItems(components: readonly (APIMessageTopLevelComponent | APIComponentInContainer)[]): { media: APIUnfurledMediaItem; spoiler: boolean }[] {
  return components.flatMap((component) => {
    if (component.type === ComponentType.MediaGallery) return component.items.map((item) => ({ media: item.media, spoiler: item.spoiler === true }));
    if (component.type === ComponentType.Container) return galleryItems(component.components);
    return [];
  });
}

/**
 * The images of one of the bot's own cards (a clicked button's message): every PNG, JPEG or WebP image it shows, from
 * its attachments or, as Discord serves cards, its media galleries. No host is judged here: the download checks it.
 */
export function cardImages(message: SourceMessage): AttachmentRef[] {
  return findMessageImages(message, () => true).images;
}

/** A message as a REST answer carries it, read like discord.js's Message. */
export function carrierOf(message: APIMessage): ImageCarrier {
  const attachments = message.attachments.map((a) => ({
    id: a.id,
    url: a.url,
    proxyURL: a.proxy_url,
    name: a.filename,
    size: a.size,
    contentType: a.content_type ?? null,
    width: a.width ?? null,
    height: a.height ?? null,
    spoiler: isSpoilerAttachment({ flags: a.flags, name: a.filename }),
  }));
  return {
    attachments: new Map(attachments.map((a) => [a.id, a])),
    embeds: message.embeds.map((data) => ({ data })),
    components: (message.components ?? []).map((component) => ({ toJSON: () => component })),
  };
}

/**
 * Every file a REST answer's message shows, images or not (an SVG original is a file component), in order and each
 * once: its attachments, then its galleries' and file components' media (#8277 leaves those out of `attachments`).
 */
export function messageFiles(message: APIMessage): { url: string; filename: string; size?: number | undefined }[] {
  const files = message.attachments.map((a) => ({ key: a.id, url: a.url, filename: a.filename, size: a.size }));
  const media = shownMedia(message.components ?? []).map((m) => ({
    key: m.attachment_id ?? withoutQuery(m.url),
    url: m.url,
    filename: fileNameOf(m.url),
    size: undefined,
  }));
  const seen = new Set<string>();
  return [...files, ...media].filter((f) => !seen.has(f.key) && seen.add(f.key)).map(({ url, filename, size }) => ({ url, filename, size }));
}

/** The first image's URL of a message the bot posted (from its attachments, else its galleries). */
export function firstImageUrl(message: APIMessage): string | undefined {
  return message.attachments[0]?.url ?? galleryItems(message.components ?? [])[0]?.media.url;
}

/** The media of every gallery and file component, at the top level or in a container. */
function shownMedia(components: readonly (APIMessageTopLevelComponent | APIComponentInContainer)[]): APIUnfurledMediaItem[] {
  return components.flatMap((component) => {
    if (component.type === ComponentType.MediaGallery) return component.items.map((item) => item.media);
    if (component.type === ComponentType.File) return [component.file];
    if (component.type === ComponentType.Container) return shownMedia(component.components);
    return [];
  });
}

function refOf(candidate: Candidate, url: string, filename: string): AttachmentRef {
  const { size, contentType, width, height, spoiler } = candidate;
  return {
    url,
    filename,
    ...(size === undefined ? {} : { size }),
    contentType: contentType ?? null,
    width: width ?? null,
    height: height ?? null,
    ...(spoiler === true ? { spoiler } : {}),
  };
}

function withoutQuery(url: string): string {
  const parsed = URL.parse(url);
  return parsed ? `${parsed.origin}${parsed.pathname}` : url;
}

/** The last segment of the URL's path (`cat.png`), or `image` when it has none. */
function fileNameOf(url: string): string {
  const segment = URL.parse(url)?.pathname.split('/').at(-1) ?? '';
  try {
    return decodeURIComponent(segment) || 'image';
  } catch {
    return segment || 'image';
  }
}

/**
 * The ids of every file `message` has (its attachments, and those its galleries and file components show, which
 * Discord leaves out of `attachments`: #8277), for an edit that keeps them all by id (v10 PATCH semantics); undefined
 * when a shown file's id is not known, so that an edit cannot drop it by leaving it out.
 */
export function keptAttachmentIds(message: Pick<ImageCarrier, 'attachments' | 'components'>): { id: string }[] | undefined {
  const media = shownMedia(message.components.map((c) => c.toJSON()));
  if (media.some((m) => m.attachment_id === undefined)) return undefined;
  const ids = new Set([...message.attachments.keys(), ...media.map((m) => m.attachment_id ?? '')]);
  return [...ids].map((id) => ({ id }));
}
