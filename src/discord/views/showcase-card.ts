/**
 * A result as the showcase channel shows it (issue 32): its image in a gallery (a spoiler where the server says), its
 * prompt made inert, and a line crediting who it was made for and who starred it, with a link to the original; in the
 * server's language. Mentions are shown, never pinging (the poster sends no allowed mentions). Pure.
 */
import { ComponentType } from 'discord.js';
import { translator } from '../../i18n/translate.js';
import { inertText } from '../text.js';
import { CARD_FLAGS, MAX_CARD_TEXT, type CardPayload } from './result-card.js';
import { CARD_ACCENT } from './render.js';

/** The showcase post of `prompt`'s image (`filename`, as attached), made for `authorId` and starred by `starredBy`. */
export function showcaseCard(
  post: { prompt: string; authorId: string; starredBy: string; link: string; spoiler: boolean; locale?: string | null | undefined },
  filename: string,
): CardPayload {
  const say = translator(post.locale);
  const credit = say('showcase.credit', { author: `<@${post.authorId}>`, starrer: `<@${post.starredBy}>`, link: post.link });
  return {
    flags: CARD_FLAGS,
    content: '',
    components: [
      {
        type: ComponentType.Container,
        accent_color: CARD_ACCENT,
        components: [
          {
            type: ComponentType.MediaGallery,
            items: [{ media: { url: `attachment://${filename}` }, description: inertText(post.prompt, 1024), spoiler: post.spoiler }],
          },
          { type: ComponentType.TextDisplay, content: `**${inertText(post.prompt, MAX_CARD_TEXT - credit.length - 20)}**` },
          { type: ComponentType.TextDisplay, content: `-# ${credit}` },
        ],
      },
    ],
  };
}
