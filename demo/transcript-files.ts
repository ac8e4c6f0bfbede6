/**
 * Writes the transcript page to a folder: `transcript.html`, with every attachment downloaded from the (emulator's)
 * CDN into `transcript-files/` next to it, so the page is self-contained and stays small (the images are files, not
 * data: URLs inside it), with the emoji font's subsets the page needs in `transcript-files/fonts/` (transcript-font.ts).
 * Run it while the emulator still serves its CDN.
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIAttachment } from 'discord-api-types/v10';
import { emojiFontFaces, subsetsFor } from './transcript-font.js';
import { renderTranscriptPage, type TranscriptInput } from './transcript-html.js';

/** The page's name in the output folder. */
export const TRANSCRIPT_PAGE = 'transcript.html';
/** The folder, next to the page, that holds the attachments. */
export const TRANSCRIPT_FILES = 'transcript-files';
/** The folder, inside {@link TRANSCRIPT_FILES}, that holds the emoji font's subsets the page needs. */
export const TRANSCRIPT_FONTS = 'fonts';

/** What {@link writeTranscript} wrote. */
export interface WrittenTranscript {
  readonly page: string;
  /** Every attachment file written, absolute. */
  readonly files: readonly string[];
  /** Every emoji font file copied next to the page, absolute. */
  readonly fonts: readonly string[];
}

/**
 * Downloads the messages' attachments and writes the page that shows them into `dir` (replacing the previous
 * transcript's files).
 * @throws when an attachment cannot be downloaded: a page with a missing image would not show the conversation
 */
export async function writeTranscript(dir: string, input: Omit<TranscriptInput, 'files'>): Promise<WrittenTranscript> {
  const folder = join(dir, TRANSCRIPT_FILES);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const files = new Map<string, string>();
  const written: string[] = [];
  for (const attachment of input.messages.flatMap((m) => m.attachments)) {
    if (files.has(attachment.id)) continue;
    const name = savedName(attachment);
    const path = join(folder, name);
    writeFileSync(path, await downloadAttachment(attachment));
    files.set(attachment.id, `${TRANSCRIPT_FILES}/${encodeURIComponent(name)}`);
    written.push(path);
  }
  // The emoji font's subsets that the page's text needs, copied next to it (the whole font is about 10 MB).
  const subsets = subsetsFor(renderTranscriptPage({ ...input, files }));
  mkdirSync(join(folder, TRANSCRIPT_FONTS), { recursive: true });
  const fonts = subsets.map((subset) => {
    const path = join(folder, TRANSCRIPT_FONTS, subset.file);
    copyFileSync(subset.path, path);
    return path;
  });
  const page = join(dir, TRANSCRIPT_PAGE);
  writeFileSync(page, renderTranscriptPage({ ...input, files, fontFaces: emojiFontFaces(subsets, `${TRANSCRIPT_FILES}/${TRANSCRIPT_FONTS}`) }));
  return { page, files: written, fonts };
}

/** `{id}-{filename}`, the filename reduced to safe characters: ids keep two `image-1.png`s apart. */
function savedName(attachment: APIAttachment): string {
  const safe = attachment.filename.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_');
  return `${attachment.id}-${safe.slice(-100)}`;
}

/** An attachment's bytes, from the CDN that serves it. */
export async function downloadAttachment(attachment: APIAttachment): Promise<Buffer> {
  const response = await fetch(attachment.url);
  if (!response.ok) throw new Error(`could not download attachment ${attachment.filename}: HTTP ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}
