/**
 * `npm run commands:deploy [-- --guild ID]`: registers the bot's commands by hand (global, or one server for
 * instant updates while developing). Uses the same definitions the bot syncs at start.
 */
import { parseArgs } from 'node:util';
import { REST, Routes } from 'discord.js';
import { ConfigError, loadDeployConfigFromProcess } from '../config.js';
import { createLogger } from '../logger.js';
import { syncCommands } from './command-sync.js';
import { commandDefinitions } from './index.js';
import { promptFeaturesOf } from './prompt-help-options.js';

async function deploy(): Promise<void> {
  const { values } = parseArgs({ options: { guild: { type: 'string' } } });
  let config;
  try {
    config = loadDeployConfigFromProcess();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  const logger = createLogger({ level: config.LOG_LEVEL });
  const rest = new REST({ api: config.DISCORD_API_URL }).setToken(config.DISCORD_TOKEN);
  const application = (await rest.get(Routes.currentApplication())) as { id: string };
  const guildId = values.guild ?? config.COMMANDS_GUILD_ID;
  const definitions = commandDefinitions(promptFeaturesOf(config));
  await syncCommands({ rest, applicationId: application.id, guildId, definitions, logger, force: true });
  process.stdout.write(`Registered ${definitions.length} commands ${guildId ? `in server ${guildId}` : 'globally'}.\n`);
}

deploy().catch((err: unknown) => {
  process.stderr.write(`commands:deploy failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
