/**
 * "Use as style" on any message (issue 32): a modal asks for the prompt, and an /imagine runs with the message's first
 * usable image as its style reference, as `style_ref` would send it (reference-options.ts): to the edits endpoint,
 * with a prompt that names it the style reference, shown on the card and in the history like any /imagine. One image,
 * as `style_ref` takes one; the message's others are left out, and the modal says the first is used. A message with
 * nothing usable is answered at once, before anything is fetched or charged (as Edit image's is).
 */
import { ApplicationCommandType, type RESTPostAPIContextMenuApplicationCommandsJSONBody } from 'discord.js';
import { UserFacingError } from '../errors.js';
import { component, type ComponentHandler, type MessageCommand } from './command.js';
import { CUSTOM_IDS } from '../discord/custom-ids.js';
import { deferInBackground, startJob } from './image-jobs.js';
import { usableImages, type MessageMenuDeps } from './edit-image-menu.js';
import { useStyleModal } from '../discord/views/style-modal.js';
import { AVAILABLE_EVERYWHERE } from './image-options.js';
import { readPrompt } from './prompt-modal.js';

export const USE_STYLE_MENU_DATA = {
  type: ApplicationCommandType.Message,
  name: 'Use as style',
  ...AVAILABLE_EVERYWHERE,
} satisfies RESTPostAPIContextMenuApplicationCommandsJSONBody;

/** The references' roles: one style reference, as /imagine's `style_ref` alone makes them. */
const STYLE_ONLY = { style: true, subject: false, presetImages: 0 };

/** Creates the context-menu command. */
export function createUseStyleMenu(deps: MessageMenuDeps): MessageCommand {
  return {
    kind: 'message',
    data: USE_STYLE_MENU_DATA,
    async execute(interaction) {
      const found = usableImages(interaction.targetMessage, (url) => deps.isAllowedImageUrl(url));
      // A modal must be the first response, within 3 s; parking the style image is one quick store write.
      const id = await deps.archive.stashEdit(found.images.slice(0, 1), found.images.length - 1 + found.notImages + found.elsewhere);
      await interaction.showModal(useStyleModal(CUSTOM_IDS.menuStyle.build({ id }), interaction.locale, found.images.length));
    },
  };
}

/** Handles the modal submit: prompt → an /imagine with the parked image as its style reference. */
export function createUseStyleMenuModal(deps: MessageMenuDeps): ComponentHandler {
  return component(CUSTOM_IDS.menuStyle, {
    async modal(interaction, { id }, ctx) {
      const prompt = readPrompt(interaction);
      deferInBackground(interaction, ctx);
      const pending = await deps.archive.takeEdit(id);
      if (!pending) throw new UserFacingError('button.expired');
      await startJob(interaction, ctx, deps, 'imagine', { prompt }, { images: pending.images.slice(0, 1), roles: STYLE_ONLY });
    },
  });
}
