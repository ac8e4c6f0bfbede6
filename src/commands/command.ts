/**
 * What a command is: its registration data (plain JSON, as Discord receives it) next to its handler.
 * Components (buttons, modals) are routed by the prefix of their custom id.
 */
import type {
  AutocompleteInteraction,
  ButtonInteraction,
  ChatInputCommandInteraction,
  MessageContextMenuCommandInteraction,
  ModalSubmitInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
  RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from 'discord.js';
import type { Logger } from 'pino';

/** Per-interaction context the router hands to every handler. */
export interface InteractionContext {
  /** Child logger bound to interaction id, command, user and guild. */
  logger: Logger;
  /** Shown to the member with any error so the operator can find the log line. */
  referenceId: string;
  /**
   * The deferred acknowledgement, when it was sent without waiting for it (see acknowledge.ts). Whatever writes
   * to the reply later (the responder, the router's error answer) awaits it first.
   */
  acknowledgement?: Promise<void> | undefined;
}

/** A slash command. */
export interface ChatCommand {
  kind: 'chat';
  data: RESTPostAPIChatInputApplicationCommandsJSONBody;
  execute(interaction: ChatInputCommandInteraction, ctx: InteractionContext): Promise<void>;
  autocomplete?(interaction: AutocompleteInteraction, ctx: InteractionContext): Promise<void>;
}

/** A message context-menu command (right-click a message → Apps). */
export interface MessageCommand {
  kind: 'message';
  data: RESTPostAPIContextMenuApplicationCommandsJSONBody;
  execute(interaction: MessageContextMenuCommandInteraction, ctx: InteractionContext): Promise<void>;
}

export type Command = ChatCommand | MessageCommand;

/** Handles buttons and modal submits whose custom id is `<prefix>:<arg>`. */
export interface ComponentHandler {
  prefix: string;
  button?(interaction: ButtonInteraction, arg: string, ctx: InteractionContext): Promise<void>;
  modal?(interaction: ModalSubmitInteraction, arg: string, ctx: InteractionContext): Promise<void>;
}
