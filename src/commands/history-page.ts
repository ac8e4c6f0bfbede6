/**
 * How /history shows a page of the member's history: one embed per job (its first image as the thumbnail, the prompt
 * made inert, when it was made, and a link to its message), and Previous/Next buttons whose custom ids carry the
 * whole state (the page, and the time the pages were counted at), so they keep working after a restart.
 */
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent, type APIEmbed } from 'discord.js';
import { inertText } from '../discord/text.js';
import type { HistoryEntry } from '../service/history-entries.js';
import type { HistoryPage } from '../service/member-history.js';

/** Custom-id prefix of the paging buttons: `histpage:{page}:{asOf}`. */
export const HISTORY_PAGE_PREFIX = 'histpage';

/** Room for a prompt in an entry's embed: five embeds stay under Discord's 6000 characters for a message's embeds. */
const EMBED_PROMPT_LENGTH = 700;

/** The link that opens a job's message in Discord. */
export function messageLink(entry: Pick<HistoryEntry, 'guildId' | 'channelId' | 'messageId'>): string {
  return `https://discord.com/channels/${entry.guildId ?? '@me'}/${entry.channelId}/${entry.messageId}`;
}

/** A Discord timestamp (`<t:…:f>`): each member reads it in their own time zone. */
export const timestampOf = (ms: number): string => `<t:${Math.floor(ms / 1000)}:f>`;

/** The ephemeral message of one page. */
export function renderHistoryPage(page: HistoryPage): {
  content: string;
  embeds: APIEmbed[];
  components: APIActionRowComponent<APIButtonComponent>[];
} {
  if (page.total === 0) return { content: 'You have no images in your history here yet.', embeds: [], components: [] };
  const content = `**Your recent images** · page ${page.page + 1} of ${page.pages} · ${page.total} job${page.total === 1 ? '' : 's'}`;
  return { content, embeds: page.entries.map(entryEmbed), components: page.pages > 1 ? [pagingRow(page)] : [] };
}

function entryEmbed(entry: HistoryEntry): APIEmbed {
  const details = [timestampOf(entry.createdAt), entry.model, entry.size ?? 'auto', `${entry.images} image${entry.images === 1 ? '' : 's'}`];
  return {
    description: [
      `**${inertText(entry.prompt, EMBED_PROMPT_LENGTH)}**`,
      details.join(' · '),
      `[Open the message](${messageLink(entry)}) · post it again with \`/show job:${entry.jobId}\``,
    ].join('\n'),
    ...(entry.imageUrl === undefined ? {} : { thumbnail: { url: entry.imageUrl } }),
  };
}

function pagingRow(page: HistoryPage): APIActionRowComponent<APIButtonComponent> {
  const button = (label: string, to: number, disabled: boolean): APIButtonComponent => ({
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    label,
    custom_id: `${HISTORY_PAGE_PREFIX}:${to}:${page.asOf}`,
    disabled,
  });
  return {
    type: ComponentType.ActionRow,
    components: [button('Previous', page.page - 1, page.page === 0), button('Next', page.page + 1, page.page >= page.pages - 1)],
  };
}

/** The page and time a paging button's custom-id argument (`{page}:{asOf}`) names; undefined when it is not one. */
export function parsePageArg(arg: string): { page: number; asOf: number } | undefined {
  const match = /^(-?\d{1,4}):(\d{1,15})$/.exec(arg);
  if (!match) return undefined;
  return { page: Number(match[1]), asOf: Number(match[2]) };
}
