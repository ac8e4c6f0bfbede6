/**
 * What the image commands need, passed in by main.ts.
 */
import type { AutocompleteInteraction, RepliableInteraction } from 'discord.js';
import type { ImageService } from '../service/image-service.js';
import type { Responder } from '../service/jobs.js';
import type { InteractionContext } from './command.js';

export interface ImageCommandDeps {
  images: Pick<ImageService, 'run'>;
  /** A responder over a deferred interaction (progress edits, delivery, hand-off after the token expires). */
  createResponder(interaction: RepliableInteraction, ctx: InteractionContext): Responder;
  /** Answers model and size autocomplete for the image commands. */
  autocomplete(interaction: AutocompleteInteraction, ctx: InteractionContext): Promise<void>;
}
