/**
 * /imagine: parse the options, acknowledge, hand the job to the service.
 */
import { ApplicationCommandType } from 'discord.js';
import type { ChatCommand } from './command.js';
import { AVAILABLE_EVERYWHERE, IMAGE_OPTIONS, PROMPT_OPTION, parseImageOptions } from './image-options.js';
import { deferInBackground, startJob, type ImageCommandDeps } from './image-jobs.js';
import { ENHANCE_OPTION, withEnhance } from './prompt-help-options.js';
import { chatInputData, readOptions } from './option-reader.js';

export const IMAGINE_DATA = chatInputData({
  type: ApplicationCommandType.ChatInput,
  name: 'imagine',
  description: 'Turn a prompt into images',
  options: [PROMPT_OPTION, ...IMAGE_OPTIONS],
  ...AVAILABLE_EVERYWHERE,
});

/** What /imagine reads: its options, and `enhance` where prompt help adds it. */
const READ = [...IMAGINE_DATA.options, ENHANCE_OPTION];

/** Creates /imagine. */
export function createImagineCommand(deps: ImageCommandDeps): ChatCommand {
  return {
    kind: 'chat',
    data: withEnhance(IMAGINE_DATA, deps.promptFeatures),
    async execute(interaction, ctx) {
      const read = readOptions(interaction.options, READ);
      const request = parseImageOptions(read, read.string('prompt'));
      const enhance = deps.promptFeatures.enhance && read.boolean('enhance') === true;
      deferInBackground(interaction, ctx);
      await startJob(interaction, ctx, deps, 'imagine', request, undefined, undefined, enhance);
    },
    autocomplete: (interaction, ctx) => deps.autocomplete(interaction, ctx),
  };
}
