/**
 * /imagine: parse the options, acknowledge, hand the job to the service.
 */
import { ApplicationCommandType } from 'discord.js';
import type { ChatCommand } from './command.js';
import { AVAILABLE_EVERYWHERE, IMAGE_OPTIONS, PROMPT_OPTION, parseImageOptions } from './image-options.js';
import { deferInBackground, startJob, type ImageCommandDeps } from './image-jobs.js';
import { ENHANCE_OPTION, withEnhance } from './prompt-help-options.js';
import { chatInputData, readOptions } from './option-reader.js';
import { checkReferenceAttachments, PRESET_OPTION, referenceAutocomplete, STYLE_REF_OPTION, SUBJECT_REF_OPTION, withReferences } from './reference-options.js';

export const IMAGINE_DATA = chatInputData({
  type: ApplicationCommandType.ChatInput,
  name: 'imagine',
  description: 'Turn a prompt into images',
  options: [PROMPT_OPTION, ...IMAGE_OPTIONS, STYLE_REF_OPTION, SUBJECT_REF_OPTION, PRESET_OPTION],
  ...AVAILABLE_EVERYWHERE,
});

/** What /imagine reads: its options, and `enhance` where prompt help adds it. */
const READ = [...IMAGINE_DATA.options, ENHANCE_OPTION];

/**
 * Creates /imagine. With a style or subject reference, or a saved style with images, the job is sent to the edits
 * endpoint with those references (reference-options.ts).
 */
export function createImagineCommand(deps: ImageCommandDeps): ChatCommand {
  const autocomplete = referenceAutocomplete(deps.presets, (interaction, ctx) => deps.autocomplete(interaction, ctx));
  return {
    kind: 'chat',
    data: withEnhance(IMAGINE_DATA, deps.promptFeatures),
    async execute(interaction, ctx) {
      const read = readOptions(interaction.options, READ);
      const request = parseImageOptions(read, read.string('prompt'));
      const enhance = deps.promptFeatures.enhance && read.boolean('enhance') === true;
      const choice = { style: read.attachment('style_ref'), subject: read.attachment('subject_ref'), preset: read.string('preset') };
      checkReferenceAttachments(choice);
      deferInBackground(interaction, ctx);
      const refs = await withReferences(deps.presets, { guildId: interaction.guildId, userId: interaction.user.id }, request.prompt, choice, 0);
      const edit = refs.images.length > 0 ? { images: refs.images, roles: refs.roles } : undefined;
      await startJob(interaction, ctx, deps, 'imagine', { ...request, prompt: refs.prompt }, edit, undefined, enhance);
    },
    autocomplete,
  };
}
