/**
 * The modal of Use as style (on any message), in the member's language: the prompt of a new image whose style comes
 * from the message's first image (commands/use-style-menu.ts). Its texts fit Discord's limits in every language
 * (test/discord/views/modal-limits.test.ts).
 */
import type { APIModalInteractionResponseCallbackData } from 'discord.js';
import { translator } from '../../i18n/translate.js';
import { shortenForDiscord } from '../text.js';
import { promptField } from './prompt-modal.js';

/** The Use as style modal; `images` is how many usable images the message has (only the first is used). */
export function useStyleModal(customId: string, locale: string | null | undefined, images: number): APIModalInteractionResponseCallbackData {
  const say = translator(locale);
  return {
    custom_id: customId,
    title: shortenForDiscord(say('modal.useStyle.title'), 45),
    components: [promptField(say, shortenForDiscord(say('modal.useStyle.note', { many: images > 1 ? 'yes' : 'no' }), 100))],
  };
}
