/**
 * What every image interaction shares: the dependencies main.ts passes in, acknowledging without waiting, and
 * the last step (build the job, log it, hand it to the service with a responder over the deferred interaction).
 */
import type { AutocompleteInteraction, BaseInteraction, RepliableInteraction } from 'discord.js';
import type { ImageService } from '../service/image-service.js';
import type { StylePresets } from '../service/style-presets.js';
import type { ImageJob } from '../core/jobs.js';
import type { Responder } from '../ports/responder.js';
import type { GenerateRequest } from '../core/images.js';
import type { InteractionContext } from './command.js';
import { buildJob } from './job-from-interaction.js';
import type { PromptHelpFeatures } from './prompt-help-options.js';

/** What the image commands need, passed in by main.ts. */
export interface ImageCommandDeps {
  images: Pick<ImageService, 'run' | 'present'>;
  /** A responder over a deferred interaction (progress edits, delivery, hand-off after the token expires). */
  createResponder(interaction: RepliableInteraction, ctx: InteractionContext): Responder;
  /** Which parts of prompt help are configured (the `enhance` option is registered only with PROMPT_MODEL). */
  promptFeatures: PromptHelpFeatures;
  /** Saved styles (/styles): the `preset` option's references and suggestions. */
  presets?: Pick<StylePresets, 'resolve' | 'names'> | undefined;
  /** Answers model and size autocomplete for the image commands. */
  autocomplete(interaction: AutocompleteInteraction, ctx: InteractionContext): Promise<void>;
}

/**
 * Sends the public deferred acknowledgement and records it in `ctx` without waiting for it.
 *
 * The deferred reply ("thinking…") is sent at once, within Discord's 3 seconds, but not awaited, so downloading
 * references, reserving quota and sending the gateway request overlap its round trip (around 100 ms against real
 * Discord). The responder awaits it before its first edit, a failed acknowledgement cancels the job (and refunds
 * it), and the router awaits it before answering an error.
 */
export function deferInBackground(interaction: RepliableInteraction, ctx: InteractionContext): void {
  const pending = interaction.deferReply().then(() => undefined);
  // Handled by whoever awaits ctx.acknowledgement; without this a failure before then would be "unhandled".
  pending.catch(() => undefined);
  ctx.acknowledgement = pending;
}

/**
 * Runs an image job for a deferred interaction; resolves when it is delivered (or throws a member-facing error).
 * Every path to a job (commands, Re-roll, the Edit modal) ends here, and the job carries whoever started it and where
 * (Manage Server, the channel and whether it is age-restricted), so the service checks the gates against them: a
 * stored request (Re-roll) is never trusted to have passed them for this member.
 */
export async function startJob(
  interaction: RepliableInteraction & BaseInteraction,
  ctx: InteractionContext,
  deps: ImageCommandDeps,
  kind: ImageJob['kind'],
  request: GenerateRequest,
  edit?: ImageJob['edit'],
  confirmed?: boolean,
  enhance?: ImageJob['enhance'],
): Promise<void> {
  const job = { ...buildJob(interaction, kind, request, edit), confirmed, enhance };
  ctx.logger.info({ jobId: job.id, kind, n: request.n ?? 1, images: edit?.images.length ?? 0, model: request.model, enhance }, 'image job accepted');
  await deps.images.run(job, deps.createResponder(interaction, ctx));
}
