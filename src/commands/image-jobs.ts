/**
 * The last step every image interaction shares: build the job, log it, hand it to the service with a responder
 * over this (already deferred) interaction.
 */
import type { BaseInteraction, RepliableInteraction } from 'discord.js';
import type { ImageJob } from '../service/jobs.js';
import type { GenerateRequest } from '../service/ports.js';
import type { InteractionContext } from './command.js';
import type { ImageCommandDeps } from './image-command-deps.js';
import { buildJob } from './job-from-interaction.js';

/** Runs an image job for a deferred interaction; resolves when it is delivered (or throws a member-facing error). */
export async function startJob(
  interaction: RepliableInteraction & BaseInteraction,
  ctx: InteractionContext,
  deps: ImageCommandDeps,
  kind: ImageJob['kind'],
  request: GenerateRequest,
  edit?: ImageJob['edit'],
): Promise<void> {
  const job = buildJob(interaction, kind, request, edit);
  ctx.logger.info({ jobId: job.id, kind, n: request.n ?? 1, images: edit?.images.length ?? 0, model: request.model }, 'image job accepted');
  await deps.images.run(job, deps.createResponder(interaction, ctx));
}
