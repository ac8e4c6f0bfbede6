/**
 * /imagine: parse the options, acknowledge, hand the job to the service.
 */
import { ApplicationCommandType, type RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { ChatCommand } from './command.js';
import { AVAILABLE_EVERYWHERE, IMAGE_OPTIONS, PROMPT_OPTION, parseImageOptions } from './image-options.js';
import { deferInBackground, startJob, type ImageCommandDeps } from './image-jobs.js';
import { withEnhance } from './prompt-help-options.js';

export const IMAGINE_DATA = {
  type: ApplicationCommandType.ChatInput,
  name: 'imagine',
  description: 'Turn a prompt into images',
  options: [PROMPT_OPTION, ...IMAGE_OPTIONS],
  ...AVAILABLE_EVERYWHERE,
} satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

/** Creates /imagine. */
export function createImagineCommand(deps: ImageCommandDeps): ChatCommand {
  return {
    kind: 'chat',
    data: withEnhance(IMAGINE_DATA, deps.promptFeatures),
    async execute(interaction, ctx) {
      const request = parseImageOptions(interaction.options, interaction.options.getString('prompt', true));
      const enhance = deps.promptFeatures.enhance && interaction.options.getBoolean('enhance') === true;
      deferInBackground(interaction, ctx);
      await startJob(interaction, ctx, deps, 'imagine', request, undefined, undefined, enhance);
    },
    autocomplete: (interaction, ctx) => deps.autocomplete(interaction, ctx),
  };
}
