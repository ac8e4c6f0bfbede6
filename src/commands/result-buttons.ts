/**
 * The buttons under a result: Re-roll (the same request again without its seed, which would make the same image,
 * charged to whoever clicks), ✨ Enhance (the same request, seed included, with its prompt rewritten by prompt help
 * first; where prompt help is off it is refused), Edit (a modal for a
 * new prompt, using the images of that message as references) and Delete (the requester, or Manage Messages; it asks
 * first, only the clicker, with Delete and Keep).
 * Their state is the job id in the custom id plus a stored record, so they keep working after a restart.
 */
import { MessageFlags, PermissionFlagsBits, type ButtonInteraction } from 'discord.js';
import { UserFacingError } from '../errors.js';
import type { JobArchive } from '../service/job-archive.js';
import { component, type ComponentHandler, type InteractionContext } from './command.js';
import type { ImageJob } from '../core/jobs.js';
import { cardImages } from '../discord/message-images.js';
import { deferInBackground, startJob, type ImageCommandDeps } from './image-jobs.js';
import { memberCan } from './job-from-interaction.js';
import { readPrompt } from './prompt-modal.js';
import { editResultModal } from '../discord/views/edit-modals.js';
import { CUSTOM_IDS } from '../discord/custom-ids.js';
import type { PendingDeletes } from '../discord/pending-deletes.js';
import { deleteAnsweredCard, deleteConfirmCard } from '../discord/views/result-card.js';

type Deps = ImageCommandDeps & { archive: Pick<JobArchive, 'recall'>; pendingDeletes: Pick<PendingDeletes, 'hold' | 'take'> };

/** Creates the result buttons' handlers. */
export function createResultButtons(deps: Deps): ComponentHandler[] {
  return [
    component(CUSTOM_IDS.reroll, {
      button: (interaction, { jobId }, ctx) => runAgain(deps, interaction, jobId, ctx),
    }),
    // Without PROMPT_MODEL it is refused at once; where a server turned prompt help off, the service refuses it.
    component(CUSTOM_IDS.enhance, {
      async button(interaction, { jobId }, ctx) {
        if (!deps.promptFeatures.enhance) throw new UserFacingError('promptHelp.off');
        await runAgain(deps, interaction, jobId, ctx, 'required');
      },
    }),
    component(CUSTOM_IDS.edit, {
      async button(interaction, { jobId }) {
        if (imagesOf(interaction).length === 0) throw new UserFacingError('input.noImages');
        await interaction.showModal(editResultModal(jobId, interaction.locale));
      },
      async modal(interaction, { jobId }, ctx) {
        const prompt = readPrompt(interaction);
        const images = interaction.message ? cardImages(interaction.message) : [];
        if (images.length === 0) throw new UserFacingError('input.noImages');
        deferInBackground(interaction, ctx);
        const previous = await deps.archive.recall(jobId);
        const { model, size, quality, background, outputFormat, outputCompression, moderation } = previous?.request ?? {};
        const request = { prompt, model, size, quality, background, outputFormat, outputCompression, moderation };
        ctx.logger.info({ from: jobId }, 'edit of a result');
        await startJob(interaction, ctx, deps, 'edit', request, { images });
      },
    }),
    ...createDeleteButtons(deps),
  ];
}

/** Delete asks first, only the clicker: the click is kept (pending-deletes.ts) until they confirm or keep it. */
function createDeleteButtons(deps: Deps): ComponentHandler[] {
  return [
    component(CUSTOM_IDS.delete, {
      async button(interaction, { jobId }, ctx) {
        const record = await deps.archive.recall(jobId);
        const isRequester = record?.requesterId === interaction.user.id;
        if (!isRequester && !memberCan(interaction, PermissionFlagsBits.ManageMessages)) throw new UserFacingError('permission.deleteResult');
        await interaction.deferUpdate();
        const id = deps.pendingDeletes.hold(interaction);
        await interaction.followUp({ ...deleteConfirmCard(id, interaction.locale), flags: [MessageFlags.Ephemeral, MessageFlags.IsComponentsV2] });
        ctx.logger.info({ jobId, messageId: interaction.message.id }, 'result delete asked');
      },
    }),
    component(CUSTOM_IDS.deleteConfirmed, {
      async button(interaction, { id }, ctx) {
        const click = deps.pendingDeletes.take(id, interaction.user.id);
        if (!click) throw new UserFacingError('delete.expired');
        await interaction.update(deleteAnsweredCard('done', interaction.locale));
        await click.deleteReply();
        ctx.logger.info('result deleted');
      },
    }),
    component(CUSTOM_IDS.deleteKept, {
      async button(interaction, { id }) {
        deps.pendingDeletes.take(id, interaction.user.id);
        await interaction.update(deleteAnsweredCard('kept', interaction.locale));
      },
    }),
  ];
}

function imagesOf(interaction: ButtonInteraction) {
  return cardImages(interaction.message);
}

/** Runs a result's stored request again as a new job of whoever clicked (`enhance`: its prompt rewritten first). */
async function runAgain(deps: Deps, interaction: ButtonInteraction, jobId: string, ctx: InteractionContext, enhance?: ImageJob['enhance']): Promise<void> {
  deferInBackground(interaction, ctx);
  const record = await deps.archive.recall(jobId);
  if (!record) throw new UserFacingError('button.expired');
  ctx.logger.info({ from: jobId, enhance }, 'result run again');
  // A re-roll asks for another image: its seed would make the same one again. Enhance keeps it, so only the words change.
  const request = enhance ? record.request : { ...record.request, seed: undefined };
  await startJob(interaction, ctx, deps, record.kind, request, record.edit, undefined, enhance);
}
