/**
 * What a command is: its registration data (plain JSON, as Discord receives it) next to its handler.
 * Components (buttons, modals) are routed by their custom id's family (src/discord/custom-ids.ts): a handler gets the
 * id's fields parsed and typed, and an id that does not parse is answered as an expired button.
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
import { UserFacingError } from '../errors.js';
import type { CustomIdFamily } from '../discord/custom-ids.js';

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

/** Handles the buttons and modal submits of one custom-id family, given the id's fields. */
export interface ComponentHandlers<A> {
  button?: (interaction: ButtonInteraction, args: A, ctx: InteractionContext) => Promise<void>;
  modal?: (interaction: ModalSubmitInteraction, args: A, ctx: InteractionContext) => Promise<void>;
}

/** What the router dispatches on: a family's prefix, and its handlers over the rest of the id (see {@link component}). */
export interface ComponentHandler {
  prefix: string;
  button?: (interaction: ButtonInteraction, rest: string, ctx: InteractionContext) => Promise<void>;
  modal?: (interaction: ModalSubmitInteraction, rest: string, ctx: InteractionContext) => Promise<void>;
}

/** The handlers of `family`'s ids: each receives the id's fields parsed; an id that does not parse is an expired button. */
export function component<A>(family: CustomIdFamily<A>, handlers: ComponentHandlers<A>): ComponentHandler {
  const parsed = (rest: string): A => {
    const args = family.parse(rest);
    if (args === undefined) throw new UserFacingError('button.expired');
    return args;
  };
  const { button, modal } = handlers;
  return {
    prefix: family.prefix,
    ...(button && {
      button: async (interaction, rest, ctx) => {
        await button(interaction, parsed(rest), ctx);
      },
    }),
    ...(modal && {
      modal: async (interaction, rest, ctx) => {
        await modal(interaction, parsed(rest), ctx);
      },
    }),
  };
}
