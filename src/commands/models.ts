/**
 * /models: the image models the gateway offers, for the member's eyes only.
 */
import { ApplicationCommandType, MessageFlags, type RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import { translator } from '../i18n/translate.js';
import type { GatewayModel } from '../core/images.js';
import type { ImageGateway } from '../ports/image-gateway.js';
import { shortenForDiscord } from '../discord/text.js';
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
      await interaction.editReply({ content: shortenForDiscord(renderModels(models, interaction.locale), 2000) });
    },
  };
}

/** A day (`2026-12-01`) as a Discord date, which every client shows in its own language; the text itself if not a date. */
function dayOf(date: string): string {
  const ms = Date.parse(date);
  return Number.isNaN(ms) ? date : `<t:${Math.floor(ms / 1000)}:D>`;
}

/** The image models as a member reads them, in their language: the default marked, shutdown dates named. */
export function renderModels(models: readonly GatewayModel[], locale?: string | null): string {
  const say = translator(locale);
  const lines = models.map((m) =>
    say('admin.models.line', {
      model: `\`${m.id}\``,
      isDefault: m.default ? 'yes' : 'no',
      hasShutdown: m.shutdownDate ? 'yes' : 'no',
      date: m.shutdownDate ? dayOf(m.shutdownDate) : '',
    }),
  );
  return [say('admin.models.title'), ...lines, say('admin.models.hint')].join('\n');
}
