/** The `type` label of imagine_bot_interactions_total, from what Discord sent. */
import type { Interaction } from 'discord.js';
import type { InteractionKind } from './metrics.js';

/** Slash commands are `command`; context-menu commands (Edit image) and select menus are `menu`. */
export function interactionKind(interaction: Interaction): InteractionKind {
  if (interaction.isAutocomplete()) return 'autocomplete';
  if (interaction.isChatInputCommand()) return 'command';
  if (interaction.isContextMenuCommand() || interaction.isAnySelectMenu()) return 'menu';
  if (interaction.isButton()) return 'button';
  if (interaction.isModalSubmit()) return 'modal';
  return 'other';
}
