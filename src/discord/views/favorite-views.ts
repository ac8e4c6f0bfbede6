/**
 * ⭐ (issue 32): the answer to a star, only the clicker's (saved to their favorites, how many they have and whether an
 * old one was dropped, and what became of the showcase), and /history favorites' list; in the member's language.
 */
import type { APIEmbed } from 'discord.js';
import { MAX_FAVORITES, type FavoriteEntry, type StarOutcome } from '../../core/favorites.js';
import { translator } from '../../i18n/translate.js';
import { inertText } from '../text.js';
import { messageLink, timestampOf } from './history-page.js';
import { textCard, type CardPayload } from './result-card.js';

/** Favorites listed at once (a message holds 10 embeds). */
export const FAVORITES_SHOWN = 10;

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

/** /history favorites: the newest {@link FAVORITES_SHOWN} of the member's favorites here, with how many they have. */
export function renderFavorites(entries: readonly FavoriteEntry[], locale?: string | null): { content: string; embeds: APIEmbed[] } {
  const say = translator(locale);
  if (entries.length === 0) return { content: say('favorites.empty'), embeds: [] };
  const content = say('favorites.header', { total: entries.length, shown: Math.min(entries.length, FAVORITES_SHOWN), max: MAX_FAVORITES });
  const embeds = entries.slice(0, FAVORITES_SHOWN).map((entry) => ({
    description: [
      `**${inertText(entry.prompt, 400)}**`,
      say('favorites.entry', { author: `<@${entry.authorId}>`, when: timestampOf(entry.starredAt), link: messageLink(entry) }),
    ].join('\n'),
  }));
  return { content, embeds };
}
