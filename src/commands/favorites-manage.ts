/**
 * /history favorites' pages (issue 32): the first page, its Previous/Next buttons and each favorite's Remove button.
 * The list is the asker's own, shown only to them; its buttons name whose list it is, and a click by anyone else is
 * refused (an ephemeral message's buttons reach only its reader, but an id is never trusted for that). Removing is
 * atomic in the store, counted against the member's rate limit of removals, and never touches a showcase post; the
 * page is shown again with what the removal did above it.
 */
import type { ButtonInteraction, ChatInputCommandInteraction } from 'discord.js';
import { ownerOf } from '../core/history-entries.js';
import { CUSTOM_IDS } from '../discord/custom-ids.js';
import { renderFavoritesPage } from '../discord/views/favorite-views.js';
import { UserFacingError } from '../errors.js';
import type { Favorites } from '../service/favorites.js';
import type { ImageService } from '../service/image-service.js';
import { component, type ComponentHandler } from './command.js';

/** What the favorites pages need: ⭐'s favorites (without them, the list is empty and the buttons expired). */
export interface FavoritesPagesDeps {
  images?: Pick<ImageService, 'favorites'> | undefined;
}

/** /history favorites: the first page of the asker's favorites here (its reply is already deferred, ephemeral). */
export async function showFavorites(interaction: ChatInputCommandInteraction, deps: FavoritesPagesDeps): Promise<void> {
  const favorites = deps.images?.favorites;
  const page = favorites ? await favorites.page(ownerOf(interaction), 0) : { entries: [], page: 0, pages: 1, total: 0, asOf: 0 };
  await interaction.editReply({ ...renderFavoritesPage(page, interaction.user.id, interaction.locale), allowedMentions: { parse: [] } });
}

/** The clicker's favorites, when the list is theirs. */
function theirs(interaction: ButtonInteraction, user: string, deps: FavoritesPagesDeps): Favorites {
  if (interaction.user.id !== user) throw new UserFacingError('favorite.notYours');
  const favorites = deps.images?.favorites;
  if (!favorites) throw new UserFacingError('button.expired');
  return favorites;
}

/** Previous/Next: the clicker's own favorites, at the page and time the button names, in the clicker's language. */
export function createFavoritesPaging(deps: FavoritesPagesDeps): ComponentHandler {
  return component(CUSTOM_IDS.favoritesPage, {
    async button(interaction, at) {
      const favorites = theirs(interaction, at.user, deps);
      await interaction.deferUpdate();
      const page = await favorites.page(ownerOf(interaction), at.page, at.asOf);
      await interaction.editReply({ ...renderFavoritesPage(page, at.user, interaction.locale), allowedMentions: { parse: [] } });
    },
  });
}

/** Remove: takes the result out of the clicker's favorites here, then shows the page again, saying so. */
export function createFavoriteRemoval(deps: FavoritesPagesDeps): ComponentHandler {
  return component(CUSTOM_IDS.favoriteRemove, {
    async button(interaction, at, ctx) {
      const favorites = theirs(interaction, at.user, deps);
      await interaction.deferUpdate();
      const owner = ownerOf(interaction);
      const removed = await favorites.remove(owner, at.jobId);
      ctx.logger.info({ jobId: at.jobId, removed: removed.removed }, 'favorite removed');
      const page = await favorites.page(owner, at.page);
      await interaction.editReply({ ...renderFavoritesPage(page, at.user, interaction.locale, removed), allowedMentions: { parse: [] } });
    },
  });
}
