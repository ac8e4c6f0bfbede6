/**
 * How /history shows a page of the member's history: one embed per job (its first image as the thumbnail, the prompt
 * made inert, when it was made, and a link to its message), and Previous/Next buttons whose custom ids carry the
 * whole state (the page, and the time the pages were counted at), so they keep working after a restart. Written in
 * the language of whoever asked or clicked (`locale`); the dates are Discord timestamps, which each reader sees in
 * their own language and time zone.
 */
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent, type APIEmbed } from 'discord.js';
import { inertText } from '../text.js';
import { CUSTOM_IDS } from '../custom-ids.js';
import { translator, type Translate } from '../../i18n/translate.js';
import { messageLink, type HistoryEntry } from '../../core/history-entries.js';
import type { HistoryPage } from '../../core/reports.js';

/** Room for a prompt in an entry's embed: five embeds stay under Discord's 6000 characters for a message's embeds. */
const EMBED_PROMPT_LENGTH = 700;

/** A Discord timestamp (`<t:…:f>`): each member reads it in their own time zone. */
export const timestampOf = (ms: number): string => `<t:${Math.floor(ms / 1000)}:f>`;

/** The ephemeral message of one page, in `locale`'s language (English by default). */
export function renderHistoryPage(
  page: HistoryPage,
  locale?: string | null,
): {
  content: string;
  embeds: APIEmbed[];
  components: APIActionRowComponent<APIButtonComponent>[];
} {
  const say = translator(locale);
  if (page.total === 0) return { content: say('history.empty'), embeds: [], components: [] };
  const content = say('history.header', { page: page.page + 1, pages: page.pages, total: page.total });
  return {
    content,
    embeds: page.entries.map((entry) => entryEmbed(entry, say)),
    components: page.pages > 1 ? [pagingRow(page, say, (to) => CUSTOM_IDS.historyPage.build({ page: to, asOf: page.asOf }))] : [],
  };
}

function entryEmbed(entry: HistoryEntry, say: Translate): APIEmbed {
  const details = [timestampOf(entry.createdAt), entry.model, entry.size ?? 'auto', say('history.images', { count: entry.images })];
  return {
    description: [
      `**${inertText(entry.prompt, EMBED_PROMPT_LENGTH)}**`,
      details.join(' · '),
      say('history.open', { link: messageLink(entry), command: `\`/show job:${entry.jobId}\`` }),
    ].join('\n'),
    ...(entry.imageUrl === undefined ? {} : { thumbnail: { url: entry.imageUrl } }),
  };
}

/** Previous and Next under a page of a list; `idOf` builds the custom id of the page a button goes to. */
export function pagingRow(page: { page: number; pages: number }, say: Translate, idOf: (to: number) => string): APIActionRowComponent<APIButtonComponent> {
  const button = (label: string, to: number, disabled: boolean): APIButtonComponent => ({
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    label,
    custom_id: idOf(to),
    disabled,
  });
  return {
    type: ComponentType.ActionRow,
    components: [button(say('history.previous'), page.page - 1, page.page === 0), button(say('history.next'), page.page + 1, page.page >= page.pages - 1)],
  };
}

/** /history clear's answer. */
export function historyClearedText(locale?: string | null): string {
  return translator(locale)('history.cleared');
}
