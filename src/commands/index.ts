/**
 * The explicit command list. main.ts builds it with its dependencies; registration uses the same definitions.
 */
import type { RESTPostAPIApplicationCommandsJSONBody } from 'discord.js';
import type { Command, ComponentHandler } from './command.js';
import { createImagineCommand, IMAGINE_DATA } from './imagine.js';
import type { ImageCommandDeps } from './image-command-deps.js';
import { createModelsCommand, MODELS_DATA } from './models.js';
import type { ImageGateway } from '../service/ports.js';

/** Every command definition, in the order Discord lists them. */
export const COMMAND_DEFINITIONS: readonly RESTPostAPIApplicationCommandsJSONBody[] = [IMAGINE_DATA, MODELS_DATA];

/** What the commands need. */
export interface CommandDeps extends ImageCommandDeps {
  models: Pick<ImageGateway, 'listModels' | 'cachedModels'>;
  defaultModel: string;
}

/** Builds the commands (same order as {@link COMMAND_DEFINITIONS}). */
export function createCommands(deps: CommandDeps): Command[] {
  return [createImagineCommand(deps), createModelsCommand(deps)];
}

/** Builds the button and modal handlers. */
export function createComponents(_deps: CommandDeps): ComponentHandler[] {
  return [];
}
