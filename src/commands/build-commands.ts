/**
 * The commands' room, built from its part of the configuration over the other rooms' parts: the command list and
 * the component handlers with their dependencies, the router over them, and the registration of the definitions.
 */
import { Events, type Client, type Interaction, type REST } from 'discord.js';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { ModelProfiles } from '../core/model-profiles.js';
import type { Clock } from '../ports/clock.js';
import type { ImageGateway } from '../ports/image-gateway.js';
import { InteractionChannels } from './channel-facts.js';
import { syncCommands } from './command-sync.js';
import { createImageAutocomplete } from './image-autocomplete.js';
import { commandDefinitions, createCommands, createComponents, type CommandDeps } from './index.js';
import { promptFeaturesOf } from './prompt-help-options.js';
import { createInteractionRouter } from './router.js';

/** What the commands read of the configuration. */
export type CommandsConfig = Pick<Config, 'PROMPT_MODEL' | 'VISION_MODEL' | 'COMMANDS_GUILD_ID'>;

/** What the commands are built with besides their configuration: the other rooms' parts they use. */
export interface CommandsParts {
  clock: Clock;
  logger: Logger;
  service: Pick<CommandDeps, 'images' | 'describe' | 'usage' | 'usageCharts' | 'settings' | 'quotas' | 'moderation' | 'archive' | 'history' | 'presets'>;
  discord: Pick<CommandDeps, 'audit' | 'pendingDeletes' | 'isAllowedImageUrl' | 'createResponder' | 'expressions' | 'showcase'> & { client: Client };
  gateway: { client: Pick<ImageGateway, 'listModels' | 'cachedModels'>; profiles: Pick<ModelProfiles, 'of'> };
}

/** The built commands. */
export interface Commands {
  /** Routes one interaction to its command or component; answers every failure itself and never rejects. */
  route: (interaction: Interaction) => Promise<void>;
  /** Registers the definitions with Discord (COMMANDS_GUILD_ID's, or global), when they differ from what is there. */
  sync: (rest: REST, applicationId: string) => Promise<void>;
}

/** Builds the commands and their router (and keeps each interaction's channel from the client's raw events). */
export function buildCommands(config: CommandsConfig, parts: CommandsParts): Commands {
  const { service, discord, logger } = parts;
  const promptFeatures = promptFeaturesOf(config);
  const deps: CommandDeps = {
    pendingDeletes: discord.pendingDeletes,
    usage: service.usage,
    usageCharts: service.usageCharts,
    clock: parts.clock,
    settings: service.settings,
    audit: discord.audit,
    images: service.images,
    models: parts.gateway.client,
    quotas: service.quotas,
    moderation: service.moderation,
    archive: service.archive,
    isAllowedImageUrl: discord.isAllowedImageUrl,
    history: service.history,
    presets: service.presets,
    autocomplete: createImageAutocomplete(parts.gateway.client, parts.gateway.profiles),
    promptFeatures,
    describe: service.describe,
    createResponder: discord.createResponder,
    expressions: discord.expressions,
    showcase: discord.showcase,
  };
  // Each interaction's own channel object (discord.js keeps only its cache's): threads and commands-only servers.
  const channels = new InteractionChannels();
  discord.client.on(Events.Raw, channels.onRaw);
  return {
    route: createInteractionRouter({ commands: createCommands(deps), components: createComponents(deps), logger, channels }),
    sync: async (rest, applicationId) => {
      const definitions = commandDefinitions(promptFeatures);
      await syncCommands({ rest, applicationId, guildId: config.COMMANDS_GUILD_ID, definitions, logger });
    },
  };
}
