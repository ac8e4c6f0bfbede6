/**
 * Reveal and Hide under a card posted as a spoiler (issue 32): only the member who asked for the images may click
 * them; the card is shown again as it was, its gallery blurred or not, with the same files (kept by id: nothing is
 * uploaded again) whose IS_SPOILER flag follows (`is_spoiler` on a kept attachment, editable since Discord's change
 * log of 2026-06-25, discord-api-docs#8429), so no job runs and nothing is charged. Anyone else is told, only them, that it is not theirs.
 */
import { UserFacingError } from '../errors.js';
import type { JobArchive } from '../service/job-archive.js';
import { component, type ComponentHandler } from './command.js';
import { CUSTOM_IDS } from '../discord/custom-ids.js';
import { keptAttachmentIds } from '../discord/message-images.js';
import { spoilerToggled } from '../discord/views/spoiler-toggle.js';

/** Creates the Reveal/Hide handler. */
export function createSpoilerToggle(deps: { archive: Pick<JobArchive, 'recall'> }): ComponentHandler {
  return component(CUSTOM_IDS.spoiler, {
    async button(interaction, { jobId, to }, ctx) {
      const record = await deps.archive.recall(jobId);
      if (!record) throw new UserFacingError('button.expired');
      if (record.requesterId !== interaction.user.id) throw new UserFacingError('permission.revealSpoiler');
      const { message } = interaction;
      const components = spoilerToggled(
        message.components.map((c) => c.toJSON()),
        jobId,
        to,
        interaction.locale,
      );
      const attachments = keptAttachmentIds(message)?.map(({ id }) => ({ id, is_spoiler: to === 'hide' }));
      await interaction.update({ components, ...(attachments ? { attachments } : {}), allowedMentions: { parse: [] } });
      ctx.logger.info({ jobId, to }, 'spoiler toggled');
    },
  });
}
