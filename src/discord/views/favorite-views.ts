/**
 * ⭐ (issue 32): the answer to a star, only the clicker's (saved to their favorites, how many they have and whether an
 * old one was dropped, and what became of the showcase), and /history favorites' pages: ten favorites a page, each
 * with its Remove button, and Previous/Next buttons whose custom ids carry whose list it is, the page and the time the
 * pages were counted at (so they keep working after a restart); in the member's language.
 */
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent, type APIEmbed } from 'discord.js';
import { FAVORITES_PAGE_SIZE, MAX_FAVORITES, type FavoriteEntry, type FavoriteRemoved, type FavoritesPage, type StarOutcome } from '../../core/favorites.js';
import { translator, type Translate } from '../../i18n/translate.js';
import { CUSTOM_IDS } from '../custom-ids.js';
import { inertText } from '../text.js';
import { pagingRow, timestampOf } from './history-page.js';
import { messageLink } from '../../core/history-entries.js';
import { textCard, type CardPayload } from './result-card.js';

/** Remove buttons in one action row (Discord's most is 5). */
const REMOVE_ROW = 5;
/** Room for a removed favorite's prompt in the notice above the page. */
const NOTICE_PROMPT_LENGTH = 200;

/** The answer to a star. */
export function starAnswerCard(outcome: StarOutcome, locale?: string | null): CardPayload {
  const say = translator(locale);
  const { added, showcase } = outcome;
  const lines = [
    added.already
      ? say('favorite.again', { total: added.total, max: MAX_FAVORITES })
      : say('favorite.saved', { total: added.total, max: MAX_FAVORITES, dropped: added.dropped > 0 ? 'yes' : 'no' }),
  ];
  if (showcase.kind !== 'none') {
    const channel = `<#${showcase.channelId}>`;
    lines.push(
      showcase.kind === 'refused'
        ? say('favorite.showcase.refused', { reason: showcase.reason, channel })
        : say(`favorite.showcase.${showcase.kind}`, { channel }),
    );
  }
  return textCard(lines);
}

/** A /history favorites page, as an ephemeral message. */
export interface FavoritesPageMessage {
  content: string;
  embeds: APIEmbed[];
  components: APIActionRowComponent<APIButtonComponent>[];
}

/**
 * One page of `userId`'s favorites here: how many they have, one numbered embed each with its Remove button, and
 * Previous/Next when there is more than one page. After a removal, `removed` says what it did above the page.
 */
export function renderFavoritesPage(page: FavoritesPage, userId: string, locale?: string | null, removed?: FavoriteRemoved): FavoritesPageMessage {
  const say = translator(locale);
  const notice = removed === undefined ? [] : [removedText(removed, say)];
  if (page.total === 0) return { content: [...notice, say('favorites.empty')].join('\n'), embeds: [], components: [] };
  const header = say('favorites.header', { page: page.page + 1, pages: page.pages, total: page.total, max: MAX_FAVORITES });
  const first = page.page * FAVORITES_PAGE_SIZE + 1;
  const embeds = page.entries.map((entry, i) => entryEmbed(entry, first + i, say));
  const rows = [
    ...(page.pages > 1 ? [pagingRow(page, say, (to) => CUSTOM_IDS.favoritesPage.build({ user: userId, page: to, asOf: page.asOf }))] : []),
    ...removeRows(page, userId, first, say),
  ];
  return { content: [...notice, header].join('\n'), embeds, components: rows };
}

function entryEmbed(entry: FavoriteEntry, n: number, say: Translate): APIEmbed {
  return {
    description: [
      `\`${n}\` **${inertText(entry.prompt, 400)}**`,
      say('favorites.entry', { author: `<@${entry.authorId}>`, when: timestampOf(entry.starredAt), link: messageLink(entry) }),
    ].join('\n'),
  };
}

function removedText(removed: FavoriteRemoved, say: Translate): string {
  if (!removed.removed || removed.prompt === undefined) return say('favorites.notThere');
  return say('favorites.removed', { prompt: inertText(removed.prompt, NOTICE_PROMPT_LENGTH) });
}

function removeRows(page: FavoritesPage, user: string, first: number, say: Translate): APIActionRowComponent<APIButtonComponent>[] {
  const buttons = page.entries.map((entry, i): APIButtonComponent => ({
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    label: say('favorites.remove', { n: first + i }),
    emoji: { name: '✖️' },
    custom_id: CUSTOM_IDS.favoriteRemove.build({ user, jobId: entry.jobId, page: page.page }),
  }));
  const rows: APIActionRowComponent<APIButtonComponent>[] = [];
  for (let at = 0; at < buttons.length; at += REMOVE_ROW) rows.push({ type: ComponentType.ActionRow, components: buttons.slice(at, at + REMOVE_ROW) });
  return rows;
}
