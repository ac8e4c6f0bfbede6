/**
 * ⭐ on a result card (issue 32): saves the result to the clicker's favorites on this server and, where the server has
 * a showcase channel, posts it there once (service/favorites.ts checks that channel's gates again and claims the post
 * atomically). The answer is only the clicker's.
 */
import { MessageFlags, type ButtonInteraction } from 'discord.js';
import { UserFacingError } from '../errors.js';
import type { AttachmentRef } from '../core/jobs.js';
import type { ShowcasePoster } from '../ports/showcase-poster.js';
import type { ImageService } from '../service/image-service.js';
import type { JobArchive } from '../service/job-archive.js';
import { starAnswerCard } from '../discord/views/favorite-views.js';
import type { InteractionContext } from './command.js';
import { ownerOf } from '../core/history-entries.js';

/** What ⭐ needs. */
export interface FavoriteActionDeps {
  images: Pick<ImageService, 'favorites'>;
  /** The servers' showcase channels (the Discord room's). */
  showcase: ShowcasePoster;
  archive: Pick<JobArchive, 'recall'>;
}

/** The star of result `jobId`, whose card shows `image`. */
export async function starResult(
  interaction: ButtonInteraction,
  jobId: string,
  image: AttachmentRef,
  deps: FavoriteActionDeps,
  ctx: InteractionContext,
): Promise<void> {
  const favorites = deps.images.favorites;
  if (!favorites) throw new UserFacingError('button.expired');
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const record = await deps.archive.recall(jobId);
  if (!record) throw new UserFacingError('button.expired');
  const outcome = await favorites.star(
    {
      owner: ownerOf(interaction),
      jobId,
      prompt: record.request.prompt,
      authorId: record.requesterId,
      lowModeration: record.request.moderation === 'low',
      card: { channelId: interaction.channelId, messageId: interaction.message.id },
      image,
      guildLocale: interaction.guildLocale,
    },
    deps.showcase,
  );
  ctx.logger.info({ jobId, showcase: outcome.showcase.kind }, 'result starred');
  await interaction.editReply({ ...starAnswerCard(outcome, interaction.locale), allowedMentions: { parse: [] } });
}
