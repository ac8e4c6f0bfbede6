/**
 * Attachments and media on the transcript page: an `attachment://name` reference (Components V2, embeds) or a CDN
 * URL resolved to the message's attachment and to the file saved next to the page, images as `<img>`, other files as
 * a file box.
 */
import type { APIAttachment, APIMessage } from 'discord-api-types/v10';
import { escapeHtml } from './transcript-markdown.js';

/** Where the page loads each attachment from: a path relative to the page, by attachment id. */
export type SavedFiles = ReadonlyMap<string, string>;

/** A media reference resolved for the page: the attachment it names (if any) and the `src` to load. */
export interface ResolvedMedia {
  readonly attachment: APIAttachment | undefined;
  /** Undefined when the page has nothing to load: an attachment that was not saved, or a URL that is not http(s). */
  readonly src: string | undefined;
  readonly name: string;
}

/** Resolves `attachment://name`, an attachment's own URL, or an external http(s) URL. */
export function resolveMedia(url: string, message: APIMessage, files: SavedFiles): ResolvedMedia {
  const named = url.startsWith('attachment://') ? url.slice('attachment://'.length) : undefined;
  const attachment = message.attachments.find((a) => (named === undefined ? a.url === url || a.proxy_url === url : a.filename === named));
  if (attachment) return { attachment, src: files.get(attachment.id), name: attachment.filename };
  const external = named === undefined && /^https?:\/\//i.test(url);
  return { attachment: undefined, src: external ? url : undefined, name: named ?? url };
}

/** Whether an attachment is shown as an image (by its content type, else by its name). */
export function isImage(attachment: APIAttachment): boolean {
  if (attachment.content_type) return attachment.content_type.startsWith('image/');
  return /\.(png|jpe?g|gif|webp)$/i.test(attachment.filename);
}

/** An image, or a visible placeholder when the page has nothing to load (so a missing file is seen, not hidden). */
export function renderImage(media: ResolvedMedia, alt: string | undefined, className: string): string {
  const label = escapeHtml(alt ?? media.name);
  if (media.src === undefined) return `<div class="${className} missing">[image not available: ${escapeHtml(media.name)}]</div>`;
  const size = media.attachment?.width && media.attachment.height ? ` width="${media.attachment.width}" height="${media.attachment.height}"` : '';
  return `<img class="${className}" src="${escapeHtml(media.src)}" alt="${label}" title="${label}"${size} loading="eager">`;
}

/** A non-image file as Discord shows it: name (a link when saved) and size. */
export function renderFileBox(media: ResolvedMedia): string {
  const name = escapeHtml(media.name);
  const label = media.src === undefined ? name : `<a href="${escapeHtml(media.src)}" download>${name}</a>`;
  const size = media.attachment ? `<span class="file-size">${formatBytes(media.attachment.size)}</span>` : '';
  return `<div class="file"><span class="file-icon">📄</span><span class="file-name">${label}</span>${size}</div>`;
}

/** A plain message's attachments: images in a grid, other files as file boxes. */
export function renderAttachments(message: APIMessage, files: SavedFiles): string {
  if (message.attachments.length === 0) return '';
  const items = message.attachments.map((attachment) => {
    const media: ResolvedMedia = { attachment, src: files.get(attachment.id), name: attachment.filename };
    return isImage(attachment) ? renderImage(media, attachment.description, 'attachment-image') : renderFileBox(media);
  });
  return `<div class="attachments">${items.join('')}</div>`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}
