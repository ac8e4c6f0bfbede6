/**
 * /history list, /history clear and /history favorites: the member's own recent images on this server (or in direct
 * messages), shown only to them and paged with buttons; clearing deletes the history from the store; favorites pages
 * through what they starred (⭐) here, each with a Remove button (favorites-manage.ts). Whose history is always the asker's:
 * there is no option to name anyone else, admins included. Everything is written in the asker's language.
 */
import { ApplicationCommandOptionType, ApplicationCommandType, MessageFlags } from 'discord.js';
import { ownerOf } from '../core/history-entries.js';
import type { MemberHistory } from '../service/member-history.js';
import { component, type ChatCommand, type ComponentHandler } from './command.js';
import { historyClearedText, renderHistoryPage } from '../discord/views/history-page.js';
import type { ImageService } from '../service/image-service.js';
import { CUSTOM_IDS } from '../discord/custom-ids.js';
import { AVAILABLE_EVERYWHERE } from './image-options.js';
import { chatInputData, subcommandOf } from './option-reader.js';
import { showFavorites } from './favorites-manage.js';

export const HISTORY_DATA = chatInputData({
  type: ApplicationCommandType.ChatInput,
  name: 'history',
  description: 'Your recent images here (only you see them)',
  ...AVAILABLE_EVERYWHERE,
  options: [
    { type: ApplicationCommandOptionType.Subcommand, name: 'list', description: 'Your recent images, newest first (only you see this)' },
    { type: ApplicationCommandOptionType.Subcommand, name: 'clear', description: 'Delete your history here (the images stay where they were posted)' },
    { type: ApplicationCommandOptionType.Subcommand, name: 'favorites', description: 'The results you starred here, newest first (only you see this)' },
  ],
});

/** What /history and its buttons need. */
interface Deps {
  history: Pick<MemberHistory, 'page' | 'clear'>;
  /** ⭐'s favorites (/history favorites); without them, the list is empty. */
  images?: Pick<ImageService, 'favorites'> | undefined;
}

/** Creates /history. */
export function createHistoryCommand(deps: Deps): ChatCommand {
  return {
    kind: 'chat',
    data: HISTORY_DATA,
    async execute(interaction, ctx) {
      const sub = subcommandOf(interaction.options, HISTORY_DATA);
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      if (sub === 'favorites') {
        await showFavorites(interaction, deps);
        return;
      }
      if (sub === 'clear') {
        await deps.history.clear(ownerOf(interaction));
        ctx.logger.info('history cleared');
        await interaction.editReply({ content: historyClearedText(interaction.locale) });
        return;
      }
      await interaction.editReply({
        ...renderHistoryPage(await deps.history.page(ownerOf(interaction), 0), interaction.locale),
        allowedMentions: { parse: [] },
      });
    },
  };
}

/**
 * The Previous/Next buttons of a /history page: the clicker's own history, at the page and time the button names, in
 * the clicker's language.
 */
export function createHistoryPaging(deps: Deps): ComponentHandler {
  return component(CUSTOM_IDS.historyPage, {
    async button(interaction, at) {
      await interaction.deferUpdate();
      await interaction.editReply({
        ...renderHistoryPage(await deps.history.page(ownerOf(interaction), at.page, at.asOf), interaction.locale),
        allowedMentions: { parse: [] },
      });
    },
  });
}
