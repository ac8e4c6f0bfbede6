/**
 * "Edit image" on any message: a modal asks for the prompt; the message's images (up to 16) become the reference
 * images: its attachments, its embeds' images, other bots' media galleries, and those of a message it forwards
 * (message-images.ts). Other files, and images on hosts the bot may not download from, are ignored, and the modal
 * says so; a message with nothing usable is answered at once, before anything is fetched or charged.
 */
import { ApplicationCommandType, type RESTPostAPIContextMenuApplicationCommandsJSONBody } from 'discord.js';
import { UserFacingError } from '../errors.js';
import type { JobArchive } from '../service/job-archive.js';
import { MAX_EDIT_IMAGES } from '../core/image-request.js';
import { component, type ComponentHandler, type MessageCommand } from './command.js';
import { CUSTOM_IDS } from '../discord/custom-ids.js';
import { deferInBackground, startJob, type ImageCommandDeps } from './image-jobs.js';
import { findMessageImages, type MessageImages, type SourceMessage } from '../discord/message-images.js';
import { editImageModal } from '../discord/views/edit-modals.js';
import { readPrompt } from './prompt-modal.js';
import { phrase } from '../core/phrase.js';

export const EDIT_IMAGE_MENU_DATA = {
  type: ApplicationCommandType.Message,
  name: 'Edit image',
} satisfies RESTPostAPIContextMenuApplicationCommandsJSONBody;

/** What the message menus that park a message's images (Edit image, Use as style) are built with. */
export type MessageMenuDeps = ImageCommandDeps & {
  archive: Pick<JobArchive, 'stashEdit' | 'takeEdit'>;
  /** Whether the bot may download from `url` (DISCORD_CDN_HOSTS, as cdn-download.ts checks it). */
  isAllowedImageUrl(url: string): boolean;
};

/** Creates the context-menu command. */
export function createEditImageMenu(deps: MessageMenuDeps): MessageCommand {
  return {
    kind: 'message',
    data: EDIT_IMAGE_MENU_DATA,
    async execute(interaction) {
      const found = usableImages(interaction.targetMessage, (url) => deps.isAllowedImageUrl(url));
      const images = found.images.slice(0, MAX_EDIT_IMAGES);
      const beyond = found.images.length - images.length;
      // A modal must be the first response, within 3 s; parking the references is one quick store write.
      const id = await deps.archive.stashEdit(images, beyond + found.notImages + found.elsewhere);
      await interaction.showModal(editImageModal(CUSTOM_IDS.menuEdit.build({ id }), interaction.locale, images.length, beyond, found));
    },
  };
}

/**
 * The images of a context menu's target message (message-images.ts); a message with none the bot may use is refused
 * at once, before anything is fetched or charged (images only elsewhere are named as such).
 * @throws UserFacingError input.attachmentInvalid, input.noImages
 */
export function usableImages(message: SourceMessage, isAllowedImageUrl: (url: string) => boolean): MessageImages {
  const found = findMessageImages(message, isAllowedImageUrl);
  if (found.images.length > 0) return found;
  if (found.elsewhere > 0) {
    throw new UserFacingError('input.attachmentInvalid', { param: phrase('detail.param.messageImages'), detail: phrase('detail.download.elsewhere') });
  }
  throw new UserFacingError('input.noImages');
}

/** Handles the modal submit: prompt → job over the parked attachments. */
export function createEditImageMenuModal(deps: MessageMenuDeps): ComponentHandler {
  return component(CUSTOM_IDS.menuEdit, {
    async modal(interaction, { id }, ctx) {
      const prompt = readPrompt(interaction);
      deferInBackground(interaction, ctx);
      const pending = await deps.archive.takeEdit(id);
      if (!pending) throw new UserFacingError('button.expired');
      await startJob(interaction, ctx, deps, 'edit', { prompt }, { images: pending.images });
    },
  });
}
