/**
 * What /show renders (commands/show.ts): a result shown again as the card it was, with its caption in the asker's
 * language, the files' alt text, and the autocomplete choices' names.
 */
import { formatDay, t } from '../../i18n/translate.js';
import { messageLink, type HistoryEntry } from '../../core/history-entries.js';
import { inertText, shortenForDiscord } from '../text.js';
import { timestampOf } from './history-page.js';
import { shownCard, type CardPayload } from './result-card.js';

/**
 * The card of `entry` shown again by `userId`, over its files `names` (as uploaded), with its actions (`inServer`:
 * emoji and stickers too); `spoiler`: blurred, with Reveal.
 */
export function showCard(
  entry: HistoryEntry,
  userId: string,
  names: readonly string[],
  locale: string,
  place: { inServer?: boolean | undefined; spoiler?: boolean | undefined } = {},
): CardPayload {
  const actions = { edits: true, masks: true, enlarge: false };
  return shownCard(entry.jobId, renderShown(entry, userId, locale), names, actions, locale, { inServer: place.inServer ?? true, spoiler: place.spoiler });
}

/** A shown file's description (its alt text): the prompt, within Discord's 1024 characters. */
export function shownFileDescription(entry: Pick<HistoryEntry, 'prompt'>): string {
  return shortenForDiscord(entry.prompt, 1024);
}

/**
 * The caption of a result shown again, in the asker's language: its prompt, for whom and when it was made, with what,
 * and where the original is.
 */
function renderShown(entry: HistoryEntry, userId: string, locale: string): string {
  const footer = t(locale, 'show.footer', {
    kind: entry.kind,
    requester: `<@${userId}>`,
    madeAt: timestampOf(entry.createdAt),
    details: `${entry.model} · ${entry.size ?? 'auto'}`,
    link: messageLink(entry),
  });
  return `**${inertText(entry.prompt, 1500)}**\n-# ${footer}`;
}

/**
 * An autocomplete choice's name (1–100 characters): the prompt on one line, and the day it was made (UTC) as the
 * member's language writes it (choice names are plain text: Discord formats no timestamp there).
 */
export function choiceName(entry: Pick<HistoryEntry, 'prompt' | 'jobId' | 'createdAt'>, locale: string): string {
  const day = formatDay(locale, entry.createdAt);
  return `${shortenForDiscord(entry.prompt.replace(/\s+/g, ' ').trim(), 100 - day.length - 3) || entry.jobId} · ${day}`;
}
