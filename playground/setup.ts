/**
 * What the page builds its controls from: the commands the bot registered (as the emulator holds them, options
 * included, so the command bar's fields are the bot's own), the members, roles and channels of the fixture server, and
 * the Discord locales the bot has a catalogue for.
 */
import { DISCORD_LOCALES } from '../src/i18n/locales.js';
import type { Harness } from '../test/e2e/harness.js';
import { allUsers } from '../test/emulators/discord/fixtures.js';

export interface PlaygroundSetup {
  /** Slash commands (type 1) and message commands (type 3) as registered, global and the server's own. */
  readonly commands: readonly unknown[];
  readonly users: readonly { id: string; name: string; roles: readonly string[] }[];
  readonly roles: readonly { name: string; label: string; id: string }[];
  readonly channels: readonly { id: string; name: string }[];
  readonly locales: readonly string[];
  /** Whom the page acts as at first. */
  readonly defaultUserId: string;
}

export function playgroundSetup(harness: Harness): PlaygroundSetup {
  const { discord } = harness;
  const { guild, member } = discord.fixtures;
  const commands = [...discord.registeredCommands('global'), ...discord.registeredCommands(guild.id)].filter((command) => {
    const type = (command as { type?: unknown }).type;
    return type === 1 || type === 3;
  });
  return {
    commands,
    users: allUsers(discord.fixtures).map((user) => ({ id: user.id, name: user.global_name ?? user.username, roles: user.roleNames })),
    roles: (['artist', 'vip', 'admin'] as const).map((name) => ({ name, label: guild.roles[name].name, id: guild.roles[name].id })),
    channels: [guild.channels.general, guild.channels.nsfw].map((channel) => ({ id: channel.id, name: channel.name })),
    locales: ['en-US', 'en-GB', ...Object.values(DISCORD_LOCALES).flat()],
    defaultUserId: member.id,
  };
}
