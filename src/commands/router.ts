/**
 * The one interaction router and its single error boundary: a member-facing error becomes a clear ephemeral
 * message; anything unexpected becomes a short apology with a reference id, logged with the error.
 */
import { MessageFlags, type Interaction, type RepliableInteraction } from 'discord.js';
import type { Logger } from 'pino';
import { describeUnexpectedError, describeUserError, errorRef, UserFacingError } from '../errors.js';
import { JobClaimedError } from '../service/claimed-jobs.js';
import type { Command, ComponentHandler, InteractionContext } from './command.js';
import { optionNameOf } from './option-names.js';
import type { InteractionChannels } from './channel-facts.js';
import { localizedCommandName } from '../i18n/command-localizations.js';
import { errorCard } from '../discord/views/result-card.js';
import { splitCustomId } from '../discord/custom-ids.js';

/** Options for {@link createInteractionRouter}. */
export interface RouterOptions {
  commands: readonly Command[];
  components: readonly ComponentHandler[];
  logger: Logger;
  /** The channel objects of the interactions' payloads (channel-facts.ts), attached to each before it is routed. */
  channels?: Pick<InteractionChannels, 'attach'> | undefined;
}

/** Builds the router; throws at boot on duplicate command names or component prefixes. */
export function createInteractionRouter(options: RouterOptions): (interaction: Interaction) => Promise<void> {
  const commands = indexBy(options.commands, (c) => c.data.name, 'command');
  const components = indexBy(options.components, (c) => c.prefix, 'component prefix');
  const log = options.logger.child({ module: 'router' });

  return async (interaction) => {
    options.channels?.attach(interaction);
    const name = commandNameOf(interaction);
    const ctx: InteractionContext = {
      referenceId: interaction.id,
      logger: log.child({ interactionId: interaction.id, command: name, userId: interaction.user.id, guildId: interaction.guildId }),
    };
    const started = performance.now();
    try {
      await dispatch(interaction, commands, components, ctx);
      ctx.logger.debug({ durationMs: Math.round(performance.now() - started) }, 'interaction handled');
    } catch (err) {
      await answerError(interaction, err, ctx);
    }
  };
}

async function dispatch(
  interaction: Interaction,
  commands: ReadonlyMap<string, Command>,
  components: ReadonlyMap<string, ComponentHandler>,
  ctx: InteractionContext,
): Promise<void> {
  if (interaction.isAutocomplete()) {
    const command = commands.get(interaction.commandName);
    if (command?.kind === 'chat' && command.autocomplete) await command.autocomplete(interaction, ctx);
    else await interaction.respond([]);
    return;
  }
  if (interaction.isChatInputCommand() || interaction.isMessageContextMenuCommand()) {
    const command = commands.get(interaction.commandName);
    if (command?.kind === 'chat' && interaction.isChatInputCommand()) return command.execute(interaction, ctx);
    if (command?.kind === 'message' && interaction.isMessageContextMenuCommand()) return command.execute(interaction, ctx);
    ctx.logger.warn('unknown command');
    throw new UserFacingError('button.expired');
  }
  if (interaction.isButton() || interaction.isModalSubmit()) {
    const [prefix, arg] = splitCustomId(interaction.customId);
    const handler = components.get(prefix);
    if (interaction.isButton() && handler?.button) return handler.button(interaction, arg, ctx);
    if (interaction.isModalSubmit() && handler?.modal) return handler.modal(interaction, arg, ctx);
    ctx.logger.warn({ customId: interaction.customId }, 'unknown component');
    throw new UserFacingError('button.expired');
  }
}

/** Answers an error on whatever response state the interaction is in; a failure here is only logged. */
async function answerError(interaction: Interaction, err: unknown, ctx: InteractionContext): Promise<void> {
  // Another process took the job over and told the member already (its notice is on the reply): nothing to add.
  if (err instanceof JobClaimedError) {
    ctx.logger.warn({ jobId: err.jobId }, 'job claimed by another process; not answered here');
    return;
  }
  const userFacing = err instanceof UserFacingError;
  // `ref`: what the error card shows admins (errors.ts), so the line a member quotes can be found.
  const ref = errorRef(ctx.referenceId);
  if (userFacing) ctx.logger.warn({ identifier: err.identifier, context: err.context, ref }, 'user-facing error');
  else ctx.logger.error({ err, ref }, 'interaction failed');
  if (!interaction.isRepliable()) return;
  // An acknowledgement still in flight decides how to answer (reply, or edit/follow up); its failure means the
  // interaction is gone, which the answer below then reports in the log.
  await ctx.acknowledgement?.catch(() => undefined);
  // The service names request fields; members know them by the options they typed, under the names their Discord
  // client shows (the options' localizations). Members read errors in their client's language (the interaction's locale).
  const { locale } = interaction;
  const nameOf = (field: string) => localizedCommandName(locale, optionNameOf(field));
  const content = userFacing ? describeUserError(err, ctx.referenceId, nameOf, locale) : describeUnexpectedError(ctx.referenceId, locale);
  try {
    await replyEphemeral(interaction, content);
  } catch (replyErr) {
    ctx.logger.error({ err: replyErr }, 'could not deliver error message');
  }
}

/**
 * Sends an ephemeral message, as a card like every other answer (result-card.ts), whether or not the interaction was
 * already acknowledged.
 */
async function replyEphemeral(interaction: RepliableInteraction, content: string): Promise<void> {
  // Errors have a colour of their own (Discord's red), never the results' blurple.
  const card = { ...errorCard(content), allowedMentions: { parse: [] } };
  if (!interaction.deferred && !interaction.replied) {
    await interaction.reply({ ...card, flags: [MessageFlags.Ephemeral, MessageFlags.IsComponentsV2] });
  } else if (interaction.deferred && interaction.ephemeral === true) {
    await interaction.editReply(card);
  } else {
    // A public reply (the "thinking…" placeholder, or its progress text) would show the error to everyone:
    // remove it and answer privately. `ephemeral` is false only after a public deferReply — never after
    // deferUpdate, whose "reply" is the message the button sits on.
    if (interaction.deferred && interaction.ephemeral === false) await interaction.deleteReply().catch(() => undefined);
    await interaction.followUp({ ...card, flags: [MessageFlags.Ephemeral, MessageFlags.IsComponentsV2] });
  }
}

function commandNameOf(interaction: Interaction): string {
  if (interaction.isCommand() || interaction.isAutocomplete()) return interaction.commandName;
  if (interaction.isButton() || interaction.isModalSubmit()) return `component:${splitCustomId(interaction.customId)[0]}`;
  return 'unknown';
}

function indexBy<T>(items: readonly T[], key: (item: T) => string, what: string): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) {
    const k = key(item);
    if (map.has(k)) throw new Error(`duplicate ${what}: ${k}`);
    map.set(k, item);
  }
  return map;
}
