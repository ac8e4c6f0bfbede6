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
  return { title, subtitle, messages: [...harness.discord.messages.values()], names: { users, channels, roles }, commands, forms: formsOf(tracked) };
}

/** What each modal submit filled in, by interaction id: the title of the modal the bot opened, and the fields' values. */
function formsOf(tracked: readonly InteractionHandle[]): Map<string, string> {
  const titles = new Map<string, string>();
  for (const handle of tracked) {
    for (const ack of handle.acks) {
      const data = ack.body?.data;
      if (ack.type === 9 && data?.custom_id !== undefined && typeof data.title === 'string') titles.set(data.custom_id, data.title);
    }
  }
  const forms = new Map<string, string>();
  for (const handle of tracked) {
    const data = handle.payload['data'] as { custom_id?: unknown; components?: unknown } | undefined;
    if (handle.payload['type'] !== 5 || typeof data?.custom_id !== 'string') continue;
    const values = fieldValues(data.components).map(([field, value]) => `${field}: ${value}`);
    forms.set(handle.id, [titles.get(data.custom_id) ?? 'a form', ...values].join(' · '));
  }
  return forms;
}

/** Every `[custom_id, value]` of a modal submit's components (rows, labels and the inputs inside them). */
function fieldValues(components: unknown): [string, string][] {
  if (typeof components !== 'object' || components === null) return [];
  if (Array.isArray(components)) return components.flatMap(fieldValues);
  const { custom_id: id, value, values, component, components: children } = components as Record<string, unknown>;
  const own: [string, string][] =
    typeof id === 'string' && (typeof value === 'string' || Array.isArray(values))
      ? [[id, typeof value === 'string' ? value : (values as unknown[]).join(', ')]]
      : [];
  return [...own, ...fieldValues(component), ...fieldValues(children)];
}
