/**
 * The explicit command list. main.ts builds it with its dependencies; registration uses the same definitions.
 */
import type { RESTPostAPIApplicationCommandsJSONBody } from 'discord.js';
import type { JobArchive } from '../service/job-archive.js';
import type { MemberHistory } from '../service/member-history.js';
import type { Clock } from '../ports/clock.js';
import type { ImageGateway } from '../ports/image-gateway.js';
import type { UsageReport } from '../service/usage-report.js';
import type { UsageCharts } from '../service/usage-chart.js';
import type { QuotaAdmin } from '../service/quota-admin.js';
import type { ModerationGate } from '../service/moderation-gate.js';
import type { Command, ComponentHandler } from './command.js';
import { createEditCommand, EDIT_DATA } from './edit.js';
import { createEditImageMenu, createEditImageMenuModal, EDIT_IMAGE_MENU_DATA } from './edit-image-menu.js';
import { createUseStyleMenu, createUseStyleMenuModal, USE_STYLE_MENU_DATA } from './use-style-menu.js';
import type { ImageCommandDeps } from './image-jobs.js';
import { createHistoryCommand, createHistoryPaging, HISTORY_DATA } from './history.js';
import { createFavoriteRemoval, createFavoritesPaging } from './favorites-manage.js';
import { createImagineCommand, IMAGINE_DATA } from './imagine.js';
import { createModelsCommand, MODELS_DATA } from './models.js';
import { createQuotaCommand } from './quota.js';
import { QUOTA_DATA } from './quota-data.js';
import { createResultButtons } from './result-buttons.js';
import { createSpoilerToggle } from './spoiler-toggle.js';
import { createCostButtons } from './cost-buttons.js';
import { createImageActions } from './image-actions.js';
import { createSettingsCommand, type SettingsCommandDeps } from './settings.js';
import { NO_PROMPT_HELP, withEnhance, type PromptHelpFeatures } from './prompt-help-options.js';
import { createDescribeButtons, createDescribeCommands, DESCRIBE_DATA, DESCRIBE_MENU_DATA, type DescribeDeps } from './describe.js';
import { createShowCommand, SHOW_DATA } from './show.js';
import { SETTINGS_DATA } from './settings-data.js';
import { createUsageCommand, USAGE_DATA } from './usage.js';
import { createStylesCommand, STYLES_DATA, type StylesDeps } from './styles.js';
import { localizeCommand } from '../i18n/command-localizations.js';
import type { PendingDeletes } from '../discord/pending-deletes.js';
import type { ImageService } from '../service/image-service.js';
import type { GuildExpressions } from '../ports/guild-expressions.js';
import type { ShowcasePoster } from '../ports/showcase-poster.js';

/** What the commands need. */
export interface CommandDeps extends ImageCommandDeps, SettingsCommandDeps {
  /** Saved styles: /styles, and the `preset` option of /imagine and /edit. */
  presets: StylesDeps['presets'] & NonNullable<ImageCommandDeps['presets']>;
  images: Pick<ImageService, 'run' | 'present' | 'expression' | 'favorites'>;
  /** Where Make emoji and Make sticker add the server's emoji and stickers (the Discord room's). */
  expressions: GuildExpressions;
  /** The servers' showcase channels, where ⭐ posts (the Discord room's). */
  showcase: ShowcasePoster;
  describe: DescribeDeps['describe'];
  usage: Pick<UsageReport, 'summary' | 'csv'>;
  /** /usage's chart. */
  usageCharts: Pick<UsageCharts, 'chart'>;
  clock: Clock;
  models: Pick<ImageGateway, 'listModels' | 'cachedModels'>;
  quotas: Pick<QuotaAdmin, 'show' | 'spending' | 'setLimit' | 'setSpendLimit' | 'resetUsage'>;
  /** Moderation strikes: /quota show tells a member's pause, /quota strikes-clear lifts it, /usage reports them. */
  moderation: Pick<ModerationGate, 'status' | 'lift' | 'report'>;
  archive: Pick<JobArchive, 'recall' | 'stashEdit' | 'takeEdit' | 'recallConfirmation' | 'takeConfirmation'>;
  /** Whether the bot may download from `url` (DISCORD_CDN_HOSTS): Edit image and Use as style ignore images anywhere else. */
  isAllowedImageUrl(url: string): boolean;
  history: Pick<MemberHistory, 'page' | 'clear' | 'show' | 'search'>;
  /** Delete clicks waiting for their confirmation (in memory; they hold interaction tokens). */
  pendingDeletes: Pick<PendingDeletes, 'hold' | 'take'>;
}

/**
 * The command list, once (a table, exempt from the function length rule): each entry's definitions as registered
 * (with the parts of prompt help that are configured) and the commands it builds, in the order both are listed.
 */
const COMMANDS: readonly {
  definitions: (features: PromptHelpFeatures) => RESTPostAPIApplicationCommandsJSONBody[];
  create: (deps: CommandDeps) => Command[];
}[] = [
  { definitions: (features) => [withEnhance(IMAGINE_DATA, features)], create: (deps) => [createImagineCommand(deps)] },
  { definitions: (features) => [withEnhance(EDIT_DATA, features)], create: (deps) => [createEditCommand(deps)] },
  { definitions: () => [EDIT_IMAGE_MENU_DATA], create: (deps) => [createEditImageMenu(deps)] },
  { definitions: () => [USE_STYLE_MENU_DATA], create: (deps) => [createUseStyleMenu(deps)] },
  { definitions: () => [MODELS_DATA], create: (deps) => [createModelsCommand(deps)] },
  { definitions: () => [QUOTA_DATA], create: (deps) => [createQuotaCommand(deps)] },
  { definitions: () => [SETTINGS_DATA], create: (deps) => [createSettingsCommand(deps)] },
  { definitions: () => [USAGE_DATA], create: (deps) => [createUsageCommand(deps)] },
  { definitions: () => [HISTORY_DATA], create: (deps) => [createHistoryCommand(deps)] },
  { definitions: () => [SHOW_DATA], create: (deps) => [createShowCommand(deps)] },
  { definitions: () => [STYLES_DATA], create: (deps) => [createStylesCommand(deps)] },
  // Registered only with VISION_MODEL or PROMPT_MODEL.
  {
    definitions: (features) => (features.describe ? [DESCRIBE_DATA, DESCRIBE_MENU_DATA] : []),
    create: (deps) => (deps.promptFeatures.describe ? createDescribeCommands(deps) : []),
  },
];

/** Every command definition with the parts of prompt help that are configured, as {@link createCommands} builds them, with its localizations (src/i18n). */
export function commandDefinitions(features: PromptHelpFeatures): RESTPostAPIApplicationCommandsJSONBody[] {
  return COMMANDS.flatMap((entry) => entry.definitions(features)).map((definition) => localizeCommand(definition));
}

/** Every command definition without prompt help (PROMPT_MODEL and VISION_MODEL unset). */
export const COMMAND_DEFINITIONS: readonly RESTPostAPIApplicationCommandsJSONBody[] = commandDefinitions(NO_PROMPT_HELP);

/** Builds the commands. */
export function createCommands(deps: CommandDeps): Command[] {
  return COMMANDS.flatMap((entry) => entry.create(deps));
}

/** Builds the button and modal handlers. */
export function createComponents(deps: CommandDeps): ComponentHandler[] {
  return [
    ...createResultButtons(deps),
    ...createCostButtons(deps),
    createImageActions(deps),
    createEditImageMenuModal(deps),
    createUseStyleMenuModal(deps),
    createHistoryPaging(deps),
    createFavoritesPaging(deps),
    createFavoriteRemoval(deps),
    createDescribeButtons(deps),
    createSpoilerToggle(deps),
  ];
}
