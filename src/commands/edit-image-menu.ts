/**
 * "Edit image" on any message: a modal asks for the prompt; all image attachments of that message (up to 16)
 * become the reference images. Non-images are ignored, and the modal says so.
 */
import { ApplicationCommandType, type RESTPostAPIContextMenuApplicationCommandsJSONBody } from 'discord.js';
import { UserFacingError } from '../errors.js';
import type { JobArchive } from '../service/job-archive.js';
import { MAX_EDIT_IMAGES } from '../service/image-request.js';
import type { ComponentHandler, MessageCommand } from './command.js';
import { looksLikeImage, toRef } from './attachments.js';
import { deferInBackground, startJob, type ImageCommandDeps } from './image-jobs.js';
import { promptModal, readPrompt } from './prompt-modal.js';

export const EDIT_IMAGE_MENU_DATA = {
  type: ApplicationCommandType.Message,
  name: 'Edit image',
} satisfies RESTPostAPIContextMenuApplicationCommandsJSONBody;

/** Custom-id prefix of the modal this command opens. */
const MENU_EDIT_PREFIX = 'menuedit';

type Deps = ImageCommandDeps & { archive: Pick<JobArchive, 'stashEdit' | 'takeEdit'> };

/** Creates the context-menu command. */
export function createEditImageMenu(deps: Deps): MessageCommand {
  return {
    kind: 'message',
    data: EDIT_IMAGE_MENU_DATA,
    async execute(interaction) {
      const all = [...interaction.targetMessage.attachments.values()];
      const images = all.filter(looksLikeImage).slice(0, MAX_EDIT_IMAGES);
      if (images.length === 0) throw new UserFacingError('input.noImages');
      const skipped = all.length - images.length;
      // A modal must be the first response, within 3 s; parking the attachments is one quick store write.
      const id = await deps.archive.stashEdit(images.map(toRef), skipped);
      const note = `${images.length} image${images.length === 1 ? '' : 's'}${skipped > 0 ? `; ${skipped} other attachment${skipped === 1 ? '' : 's'} ignored` : ''}`;
      await interaction.showModal(promptModal(`${MENU_EDIT_PREFIX}:${id}`, 'Edit image', note));
    },
  };
}

/** Handles the modal submit: prompt → job over the parked attachments. */
export function createEditImageMenuModal(deps: Deps): ComponentHandler {
  return {
    prefix: MENU_EDIT_PREFIX,
    async modal(interaction, id, ctx) {
      const prompt = readPrompt(interaction);
      deferInBackground(interaction, ctx);
      const pending = await deps.archive.takeEdit(id);
      if (!pending) throw new UserFacingError('button.expired');
      await startJob(interaction, ctx, deps, 'edit', { prompt }, { images: pending.images });
    },
  };
}
