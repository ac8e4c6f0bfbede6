/**
 * /models: the image models the gateway offers, for the member's eyes only.
 */
import { ApplicationCommandType, MessageFlags, type RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { ImageGateway } from '../ports/image-gateway.js';
import { renderModelList } from '../discord/views/models-text.js';
import type { ChatCommand } from './command.js';

export const MODELS_DATA = {
  type: ApplicationCommandType.ChatInput,
  name: 'models',
  description: 'List the image models you can use',
} satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

/** Creates /models. */
export function createModelsCommand(deps: { models: Pick<ImageGateway, 'listModels'> }): ChatCommand {
  return {
    kind: 'chat',
    data: MODELS_DATA,
    async execute(interaction) {
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      const models = (await deps.models.listModels()).filter((m) => m.image);
      await interaction.editReply({ content: renderModelList(models, interaction.locale) });
    },
  };
}
