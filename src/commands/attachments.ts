/**
 * Attachment handling on the command side: which attachments are images, and their references for the service
 * (which downloads them). The real check is by magic bytes after download; this only filters the obvious.
 */
import type { Attachment } from 'discord.js';
import type { AttachmentRef } from '../service/jobs.js';

const IMAGE_TYPES = /^image\/(png|jpeg|jpg|webp)\b/i;
const IMAGE_EXTENSIONS = /\.(png|jpe?g|webp)$/i;

/** Whether an attachment looks like a PNG, JPEG or WebP image (by content type, else by extension). */
export function looksLikeImage(attachment: Pick<Attachment, 'contentType' | 'name'>): boolean {
  return attachment.contentType ? IMAGE_TYPES.test(attachment.contentType) : IMAGE_EXTENSIONS.test(attachment.name);
}

/** The reference the service downloads. */
export function toRef(attachment: Pick<Attachment, 'url' | 'name' | 'size' | 'contentType' | 'width' | 'height'>): AttachmentRef {
  return {
    url: attachment.url,
    filename: attachment.name,
    size: attachment.size,
    contentType: attachment.contentType,
    width: attachment.width,
    height: attachment.height,
  };
}
