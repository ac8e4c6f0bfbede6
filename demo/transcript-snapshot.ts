/**
 * The transcript page's input, taken from a running harness: every message the Discord emulator holds (in creation
 * order), the fixture world's names (users, channels, roles) and the command each tracked interaction ran.
 */
import type { Harness } from '../test/e2e/harness.js';
import { allUsers } from '../test/emulators/discord/fixtures.js';
import type { InteractionHandle } from '../test/emulators/discord/index.js';
import type { TranscriptInput } from './transcript-html.js';

/** The page's input, without the saved files (writeTranscript adds them). */
export function snapshotConversation(
  harness: Harness,
  tracked: readonly InteractionHandle[],
  title: string,
  subtitle?: string,
): Omit<TranscriptInput, 'files'> {
  const { fixtures } = harness.discord;
  const users = new Map<string, string>([[harness.discord.botUserId, harness.bot.client.user?.username ?? 'imagine-bot']]);
  for (const user of allUsers(fixtures)) users.set(user.id, user.global_name ?? user.username);
  const channels = new Map<string, string>();
  const roles = new Map<string, string>();
  for (const guild of [fixtures.guild, fixtures.otherGuild, fixtures.thirdGuild]) {
    for (const channel of Object.values(guild.channels)) channels.set(channel.id, channel.name);
    for (const role of Object.values(guild.roles)) roles.set(role.id, role.name);
  }
  const commands = new Map<string, string>();
  for (const handle of tracked) {
    const data = handle.payload['data'];
    if (typeof data === 'object' && data !== null && 'name' in data && typeof data.name === 'string') commands.set(handle.id, data.name);
  }
  return { title, subtitle, messages: [...harness.discord.messages.values()], names: { users, channels, roles }, commands };
}
