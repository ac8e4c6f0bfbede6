/**
 * Attachment handling on the command side: which attachments are images, and their references for the service
 * (which downloads them). The real check is by magic bytes after download; this only filters the obvious.
 */
import type { Attachment, FileUploadType } from 'discord.js';
import type { AttachmentRef } from '../core/jobs.js';
import { isSpoilerAttachment } from '../discord/message-images.js';

export { looksLikeImage } from '../discord/message-images.js';

/**
 * What every attachment option declares, so clients offer only images to pick (Discord's `file_types`, checked by
 * extension only: the bot still checks the bytes).
 */
export const IMAGE_FILES: { file_types: FileUploadType[] } = { file_types: ['image'] };

/** The reference the service downloads; a spoiler (its flag or name) says so, so that what is made from it is one too. */
export function toRef(
  attachment: Pick<Attachment, 'url' | 'name' | 'size' | 'contentType' | 'width' | 'height'> & { readonly spoiler?: boolean },
): AttachmentRef {
  return {
    ...(isSpoilerAttachment(attachment) ? { spoiler: true } : {}),
    url: attachment.url,
    filename: attachment.name,
    size: attachment.size,
    contentType: attachment.contentType,
    width: attachment.width,
    height: attachment.height,
  };
}
