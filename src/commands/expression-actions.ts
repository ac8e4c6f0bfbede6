/**
 * Make emoji and Make sticker on a result card (issue 32): the click checks at once that an expression can be added
 * here (a server with the bot in it, Create Expressions for the member and for the bot) and asks for the name in a
 * modal; the modal's answer checks the name against Discord's rules (a friendly message when it breaks them), checks
 * everything again for that interaction, and hands the card's image to the service, which crops, fits and adds it
 * (service/expressions.ts). The answer is only the member's (ephemeral).
 */
import { MessageFlags, PermissionFlagsBits, type BaseInteraction, type ButtonInteraction, type ModalSubmitInteraction } from 'discord.js';
import { UserFacingError } from '../errors.js';
import { checkExpressionWords, expressionRefusal, suggestedName, type ExpressionKind, type ExpressionPlace } from '../core/expressions.js';
import type { AttachmentRef } from '../core/jobs.js';
import { phrase } from '../core/phrase.js';
import type { GuildExpressions } from '../ports/guild-expressions.js';
import type { ImageService } from '../service/image-service.js';
import type { JobArchive } from '../service/job-archive.js';
import { ACTIONS } from '../discord/custom-ids.js';
import { DESCRIPTION_FIELD, expressionAddedCard, expressionModal, NAME_FIELD, TAGS_FIELD } from '../discord/views/expression-views.js';
import type { InteractionContext } from './command.js';
import { memberCan } from './job-from-interaction.js';

/** What the two actions need. */
export interface ExpressionActionDeps {
  images: Pick<ImageService, 'expression'>;
  /** Where the server's emoji and stickers are added (the Discord room's). */
  expressions: GuildExpressions;
  archive: Pick<JobArchive, 'recall'>;
}

/** The kind an action code makes; undefined for every other action. */
export function expressionKindOf(code: string): ExpressionKind | undefined {
  return code === ACTIONS.makeEmoji ? 'emoji' : code === ACTIONS.makeSticker ? 'sticker' : undefined;
}

/** Where the interaction happened, as the expressions' rule reads it: the server, the bot in it, and both permissions. */
export function expressionPlace(interaction: BaseInteraction): ExpressionPlace {
  const guildId = interaction.guildId;
  return {
    inServer: guildId !== null,
    // The bot's guilds are all cached (the Guilds intent); a server that installed only the commands is not among them.
    botInServer: guildId !== null && interaction.client.guilds.cache.has(guildId),
    memberCanCreate: memberCan(interaction, PermissionFlagsBits.CreateGuildExpressions),
    // The interaction's app_permissions: the bot's own permissions where it was used.
    botCanCreate: interaction.appPermissions.has(PermissionFlagsBits.CreateGuildExpressions),
  };
}

/** The click: refused at once when nothing could be added here; otherwise the name is asked for. */
export async function askExpression(interaction: ButtonInteraction, jobId: string, kind: ExpressionKind, deps: ExpressionActionDeps): Promise<void> {
  const refused = expressionRefusal(expressionPlace(interaction));
  if (refused !== undefined) throw new UserFacingError(refused);
  const record = await deps.archive.recall(jobId);
  if (!record) throw new UserFacingError('button.expired');
  await interaction.showModal(expressionModal(jobId, kind, suggestedName(record.request.prompt, kind), interaction.locale));
}

/** The modal's answer: the words checked, every gate again, then the expression made and added. */
export async function makeExpressionFromModal(
  interaction: ModalSubmitInteraction,
  jobId: string,
  kind: ExpressionKind,
  image: AttachmentRef,
  deps: ExpressionActionDeps,
  ctx: InteractionContext,
): Promise<void> {
  // An emoji's modal has no tags or description.
  const field = (id: string) => (interaction.fields.fields.has(id) ? interaction.fields.getTextInputValue(id) : '');
  const checked = checkExpressionWords(kind, { name: field(NAME_FIELD), tags: field(TAGS_FIELD), description: field(DESCRIPTION_FIELD) });
  if (!checked.ok) throw new UserFacingError('expression.invalid', { detail: phrase(`detail.expression.${checked.problem}`) });
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const record = await deps.archive.recall(jobId);
  if (!record) throw new UserFacingError('button.expired');
  ctx.logger.info({ from: jobId, kind }, 'expression asked');
  const added = await deps.images.expression(
    {
      kind,
      words: checked.words,
      guildId: interaction.guildId,
      userId: interaction.user.id,
      place: expressionPlace(interaction),
      image,
      lowModeration: record.request.moderation === 'low',
      guildLocale: interaction.guildLocale,
    },
    deps.expressions,
  );
  await interaction.editReply({ ...expressionAddedCard(kind, added, interaction.locale), allowedMentions: { parse: [] } });
}
