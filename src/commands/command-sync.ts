/**
 * Keeps Discord's registered commands equal to our definitions. At start the bot compares first and overwrites
 * only when they differ (command creation is rate limited per day); `npm run commands:deploy` forces it.
 */
import { Routes, type REST, type RESTPostAPIApplicationCommandsJSONBody } from 'discord.js';
import type { Logger } from 'pino';
import { isDeepStrictEqual } from 'node:util';

/** Options for {@link syncCommands}. */
export interface SyncOptions {
  rest: Pick<REST, 'get' | 'put'>;
  applicationId: string;
  /** Register in one server (instant, for development) instead of globally. */
  guildId?: string | undefined;
  definitions: readonly RESTPostAPIApplicationCommandsJSONBody[];
  logger: Logger;
  /** Overwrite even when nothing differs. @default false */
  force?: boolean | undefined;
}

/** Compares and, when needed, bulk-overwrites; returns what it did. */
export async function syncCommands(options: SyncOptions): Promise<'unchanged' | 'updated'> {
  const route = options.guildId ? Routes.applicationGuildCommands(options.applicationId, options.guildId) : Routes.applicationCommands(options.applicationId);
  const wanted = options.definitions.map((d) => (options.guildId ? forGuild(d) : d));
  if (!options.force) {
    // Without with_localizations Discord leaves the localization dictionaries out, and a changed translation would go unseen.
    const registered = (await options.rest.get(route, { query: new URLSearchParams({ with_localizations: 'true' }) })) as unknown[];
    if (sameCommands(registered, wanted)) {
      options.logger.info({ count: wanted.length, guildId: options.guildId }, 'commands unchanged');
      return 'unchanged';
    }
  }
  await options.rest.put(route, { body: wanted });
  options.logger.info({ count: wanted.length, guildId: options.guildId }, 'commands registered');
  return 'updated';
}

/** Guild commands cannot carry the global-only installation fields. */
function forGuild(definition: RESTPostAPIApplicationCommandsJSONBody): RESTPostAPIApplicationCommandsJSONBody {
  const { contexts: _contexts, integration_types: _types, ...rest } = definition;
  return rest;
}

/** Order-insensitive comparison of what matters, with Discord's defaults filled in on both sides. */
export function sameCommands(registered: readonly unknown[], wanted: readonly unknown[]): boolean {
  if (registered.length !== wanted.length) return false;
  const key = (c: unknown) => JSON.stringify([field(c, 'type') ?? 1, field(c, 'name')]);
  const byKey = new Map(registered.map((c) => [key(c), c]));
  return wanted.every((c) => {
    // Discord fills in installation fields we leave out (e.g. integration_types [0] or [0,1]); compare them
    // only when we set them ourselves.
    const skip = INSTALL_FIELDS.filter((name) => field(c, name) === undefined);
    const fields = COMMAND_FIELDS.filter((name) => !skip.includes(name));
    return isDeepStrictEqual(normalise(byKey.get(key(c)), fields), normalise(c, fields));
  });
}

const INSTALL_FIELDS = ['contexts', 'integration_types'];

const LOCALIZATION_FIELDS = ['name_localizations', 'description_localizations'];
const COMMAND_FIELDS = [
  'type',
  'name',
  'description',
  ...LOCALIZATION_FIELDS,
  'default_member_permissions',
  'nsfw',
  'contexts',
  'integration_types',
  'options',
];
const OPTION_FIELDS = [
  'type',
  'name',
  'description',
  ...LOCALIZATION_FIELDS,
  'required',
  'choices',
  'min_value',
  'max_value',
  'min_length',
  'max_length',
  'autocomplete',
  'channel_types',
  'options',
];
const DEFAULTS: Record<string, unknown> = {
  type: 1,
  description: '',
  default_member_permissions: null,
  nsfw: false,
  contexts: null,
  integration_types: null,
  options: [],
  required: false,
  autocomplete: false,
  choices: [],
  name_localizations: null,
  description_localizations: null,
};

function normalise(value: unknown, fields = COMMAND_FIELDS): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of fields) {
    let v = field(value, name) ?? DEFAULTS[name];
    if (name === 'options' && Array.isArray(v)) v = v.map((o) => normalise(o, OPTION_FIELDS));
    if (name === 'choices' && Array.isArray(v))
      v = v.map((c) => ({ name: field(c, 'name'), name_localizations: field(c, 'name_localizations') ?? null, value: field(c, 'value') }));
    if (name === 'integration_types' && Array.isArray(v) && v.length === 0) v = null;
    if (v !== undefined) out[name] = v;
  }
  return out;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? ((value as Record<string, unknown>)[name] ?? undefined) : undefined;
}
