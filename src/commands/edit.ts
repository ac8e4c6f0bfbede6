/**
 * /edit: up to four reference images (in option order) and an optional mask, plus the shared image options.
 */
import { ApplicationCommandOptionType, ApplicationCommandType, type RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import { UserFacingError } from '../errors.js';
import type { ChatCommand } from './command.js';
import { looksLikeImage, toRef } from './attachments.js';
import { AVAILABLE_EVERYWHERE, FIDELITY_OPTION, IMAGE_OPTIONS, PROMPT_OPTION, parseEditOptions, parseImageOptions } from './image-options.js';
import { deferInBackground, startJob, type ImageCommandDeps } from './image-jobs.js';
import { withEnhance } from './prompt-help-options.js';
import { phrase } from '../core/phrase.js';

const IMAGE_OPTION_NAMES = ['image', 'image2', 'image3', 'image4'] as const;

export const EDIT_DATA = {
  type: ApplicationCommandType.ChatInput,
  name: 'edit',
  description: 'Change, restyle or combine images you attach',
  options: [
    { ...PROMPT_OPTION, description: 'What to change, keep or create' },
    { type: ApplicationCommandOptionType.Attachment, name: 'image', description: 'The image to edit (PNG, JPEG or WebP)', required: true },
    { type: ApplicationCommandOptionType.Attachment, name: 'image2', description: 'Another reference image' },
    { type: ApplicationCommandOptionType.Attachment, name: 'image3', description: 'Another reference image' },
    { type: ApplicationCommandOptionType.Attachment, name: 'image4', description: 'Another reference image' },
    { type: ApplicationCommandOptionType.Attachment, name: 'mask', description: 'PNG whose transparent areas mark what to change (same size as image)' },
    FIDELITY_OPTION,
    ...IMAGE_OPTIONS,
  ],
  ...AVAILABLE_EVERYWHERE,
} satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

/** Creates /edit. */
export function createEditCommand(deps: ImageCommandDeps): ChatCommand {
  return {
    kind: 'chat',
    data: withEnhance(EDIT_DATA, deps.promptFeatures),
    async execute(interaction, ctx) {
      const request = parseImageOptions(interaction.options, interaction.options.getString('prompt', true));
      const { inputFidelity } = parseEditOptions(interaction.options);
      const attachments = IMAGE_OPTION_NAMES.map((name) => interaction.options.getAttachment(name)).filter((a) => a !== null);
      const bad = attachments.find((a) => !looksLikeImage(a));
      if (bad) throw new UserFacingError('input.attachmentInvalid', { param: `\`${bad.name}\``, detail: phrase('detail.image.notEditable') });
      const mask = interaction.options.getAttachment('mask');
      const enhance = deps.promptFeatures.enhance && interaction.options.getBoolean('enhance') === true;
      deferInBackground(interaction, ctx);
      const edit = { images: attachments.map(toRef), mask: mask ? toRef(mask) : undefined, inputFidelity };
      await startJob(interaction, ctx, deps, 'edit', request, edit, undefined, enhance);
    },
    autocomplete: (interaction, ctx) => deps.autocomplete(interaction, ctx),
  };
}
