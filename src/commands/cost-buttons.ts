/**
 * Generate and Cancel under the cost question of an expensive request (the server's confirm threshold, issue 17).
 * Only the member who asked may answer it. Generate runs the request as a new job from this click, so every gate
 * (channel rules, models, quota, money limit) is checked again, and reserves only now; Cancel drops it. The request
 * waits in the store under the id the buttons carry, so they work after a restart.
 */
import type { ButtonInteraction } from 'discord.js';
import { UserFacingError } from '../errors.js';
import type { JobArchive } from '../service/job-archive.js';
import { component, type ComponentHandler, type InteractionContext } from './command.js';
import { startJob, type ImageCommandDeps } from './image-jobs.js';
import { CUSTOM_IDS } from '../discord/custom-ids.js';
import { renderCostAnswer } from '../discord/views/render.js';

type Deps = ImageCommandDeps & { archive: Pick<JobArchive, 'recallConfirmation' | 'takeConfirmation'> };

/** Creates the two button handlers. */
export function createCostButtons(deps: Deps): ComponentHandler[] {
  /** The waiting request, taken once, when the clicker is the member who asked. */
  const take = async (interaction: ButtonInteraction, id: string) => {
    const pending = await deps.archive.recallConfirmation(id);
    if (!pending) throw new UserFacingError('button.expired');
    if (pending.requesterId !== interaction.user.id) throw new UserFacingError('permission.confirmCost');
    const taken = await deps.archive.takeConfirmation(id);
    if (!taken) throw new UserFacingError('button.expired');
    return taken;
  };
  return [
    component(CUSTOM_IDS.confirm, {
      async button(interaction, { id }, ctx) {
        const pending = await take(interaction, id);
        // The question becomes the job's reply (progress, then the result); its buttons go at once.
        acknowledgeWith(interaction, ctx, 'confirmed');
        ctx.logger.info({ from: id }, 'cost confirmed');
        try {
          await startJob(interaction, ctx, deps, pending.kind, pending.request, pending.edit, true, pending.enhance);
        } catch (err) {
          // Refused or failed (the member hears why, privately): the public question goes, as a command's placeholder would.
          await ctx.acknowledgement?.then(() => interaction.deleteReply()).catch(() => undefined);
          throw err;
        }
      },
    }),
    component(CUSTOM_IDS.cancel, {
      async button(interaction, { id }, ctx) {
        await take(interaction, id);
        acknowledgeWith(interaction, ctx, 'cancelled');
        await ctx.acknowledgement;
        ctx.logger.info({ from: id }, 'cost confirmation cancelled');
      },
    }),
  ];
}

/** Acknowledges the click by updating its message (no buttons left), without waiting; the job's writes await it. */
function acknowledgeWith(interaction: ButtonInteraction, ctx: InteractionContext, answer: 'confirmed' | 'cancelled'): void {
  const pending = interaction.update({ ...renderCostAnswer(answer, interaction.locale), allowedMentions: { parse: [] } }).then(() => undefined);
  pending.catch(() => undefined);
  ctx.acknowledgement = pending;
}
