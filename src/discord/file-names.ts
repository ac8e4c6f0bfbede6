/**
 * Attachment file names for what the bot posts, derived from the prompt.
 */
import type { ImageFormat } from '../core/images.js';

/** Words of the prompt kept in a file name; the first few are enough to recognise an image in a download folder. */
const MAX_SLUG_WORDS = 6;
/** Upper bound for the slug part, so the whole name (suffix and extension included) stays around 60 characters. */
const MAX_SLUG_LENGTH = 48;
const FALLBACK_SLUG = 'image';

/** `.jpg` rather than `.jpeg`: the extension every viewer and OS file association recognises. */
const EXTENSIONS = { png: 'png', jpeg: 'jpg', webp: 'webp', gif: 'gif', svg: 'svg' } as const satisfies Record<ImageFormat, string>;

/**
 * Builds an ASCII-safe attachment name from the first words of the prompt, e.g. `a-cat-in-a-spacesuit-1.png`.
 *
 * Accents are folded (`café` → `cafe`); anything else outside `[a-z0-9]` separates words, so a prompt in a
 * non-Latin script falls back to `image`. The number is 1-based and zero-padded to the width of `total`
 * (`-01` … `-10`) so names sort in the order the images were posted.
 *
 * @param index - 0-based position of the image in the reply.
 * @param total - Number of images in the reply.
 */
export function imageFileName(prompt: string, index: number, total: number, format: ImageFormat): string {
  const width = String(Math.max(total, 1)).length;
  const number = String(index + 1).padStart(width, '0');
  return `${slugify(prompt)}-${number}.${EXTENSIONS[format]}`;
}

function slugify(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0)
    .slice(0, MAX_SLUG_WORDS);
  let slug = '';
  for (const word of words) {
    const next = slug === '' ? word : `${slug}-${word}`;
    if (next.length > MAX_SLUG_LENGTH) {
      // A single overlong first word is cut rather than dropped, so the name still says something.
      if (slug === '') slug = word.slice(0, MAX_SLUG_LENGTH);
      break;
    }
    slug = next;
  }
  return slug === '' ? FALLBACK_SLUG : slug;
}
