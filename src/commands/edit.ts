/**
 * /edit: up to four reference images (in option order) and an optional mask, plus the shared image options.
 */
import { ApplicationCommandOptionType, ApplicationCommandType } from 'discord.js';
import { UserFacingError } from '../errors.js';
import type { ChatCommand } from './command.js';
import { looksLikeImage, toRef, IMAGE_FILES } from './attachments.js';
import { AVAILABLE_EVERYWHERE, FIDELITY_OPTION, IMAGE_OPTIONS, PROMPT_OPTION, parseEditOptions, parseImageOptions } from './image-options.js';
import { deferInBackground, startJob, type ImageCommandDeps } from './image-jobs.js';
import { ENHANCE_OPTION, withEnhance } from './prompt-help-options.js';
import { chatInputData, readOptions } from './option-reader.js';
import { PRESET_OPTION, referenceAutocomplete, withReferences } from './reference-options.js';
import { phrase } from '../core/phrase.js';

const IMAGE_OPTION_NAMES = ['image', 'image2', 'image3', 'image4'] as const;

export const EDIT_DATA = chatInputData({
  type: ApplicationCommandType.ChatInput,
  name: 'edit',
  description: 'Change, restyle or combine images you attach',
  options: [
    { ...PROMPT_OPTION, description: 'What to change, keep or create' },
    { type: ApplicationCommandOptionType.Attachment, ...IMAGE_FILES, name: 'image', description: 'The image to edit (PNG, JPEG or WebP)', required: true },
    { type: ApplicationCommandOptionType.Attachment, ...IMAGE_FILES, name: 'image2', description: 'Another reference image' },
    { type: ApplicationCommandOptionType.Attachment, ...IMAGE_FILES, name: 'image3', description: 'Another reference image' },
    { type: ApplicationCommandOptionType.Attachment, ...IMAGE_FILES, name: 'image4', description: 'Another reference image' },
    {
      type: ApplicationCommandOptionType.Attachment,
      ...IMAGE_FILES,
      name: 'mask',
      description: 'PNG whose transparent areas mark what to change (same size as image)',
    },
    FIDELITY_OPTION,
    ...IMAGE_OPTIONS,
    PRESET_OPTION,
  ],
  ...AVAILABLE_EVERYWHERE,
});

/** What /edit reads: its options, and `enhance` where prompt help adds it. */
const READ = [...EDIT_DATA.options, ENHANCE_OPTION];

/** Creates /edit. */
export function createEditCommand(deps: ImageCommandDeps): ChatCommand {
  const autocomplete = referenceAutocomplete(deps.presets, (interaction, ctx) => deps.autocomplete(interaction, ctx));
  return {
    kind: 'chat',
    data: withEnhance(EDIT_DATA, deps.promptFeatures),
    async execute(interaction, ctx) {
      const read = readOptions(interaction.options, READ);
      const request = parseImageOptions(read, read.string('prompt'));
      const { inputFidelity } = parseEditOptions(read);
      const attachments = IMAGE_OPTION_NAMES.map((name) => read.attachment(name)).filter((a) => a !== undefined);
      const bad = attachments.find((a) => !looksLikeImage(a));
      if (bad) throw new UserFacingError('input.attachmentInvalid', { param: `\`${bad.name}\``, detail: phrase('detail.image.notEditable') });
      const mask = read.attachment('mask');
      const enhance = deps.promptFeatures.enhance && read.boolean('enhance') === true;
      deferInBackground(interaction, ctx);
      // A saved style's images follow the member's own, and its suffix ends the prompt.
      const member = { guildId: interaction.guildId, userId: interaction.user.id };
      const refs = await withReferences(deps.presets, member, request.prompt, { preset: read.string('preset') }, attachments.length);
      const edit = { images: [...attachments.map(toRef), ...refs.images], mask: mask ? toRef(mask) : undefined, inputFidelity, roles: refs.roles };
      await startJob(interaction, ctx, deps, 'edit', { ...request, prompt: refs.prompt }, edit, undefined, enhance);
    },
    autocomplete,
  };
}
