/**
 * A stand-in for discord.js's REST, for command registration: it records GETs and PUTs and answers GET with
 * the registered commands as Discord echoes them back with `with_localizations=true` (ids, version, application_id,
 * the localizations given or null,
 * `required: false` dropped, `integration_types` defaulted).
 */
import type { REST } from 'discord.js';

type Json = Record<string, unknown>;

export const APPLICATION_ID = '100000000000000001';

export class FakeCommandRest implements Pick<REST, 'get' | 'put'> {
  readonly gets: string[] = [];
  /** The query of each GET. */
  readonly queries: string[] = [];
  readonly puts: { route: string; body: unknown }[] = [];
  /** What GET returns, per route. */
  readonly registered = new Map<string, unknown[]>();

  async get(route: `/${string}`, options?: { query?: URLSearchParams }): Promise<unknown> {
    this.gets.push(route);
    this.queries.push(options?.query?.toString() ?? '');
    return structuredClone(this.registered.get(route) ?? []);
  }

  async put(route: `/${string}`, options?: { body?: unknown }): Promise<unknown> {
    const body = options?.body;
    this.puts.push({ route, body: structuredClone(body) });
    const guildId = /\/guilds\/(\d+)\//.exec(route)?.[1];
    const echoed = Array.isArray(body) ? body.map((c: Json, i) => echoCommand(c, { guildId, index: i })) : [];
    this.registered.set(route, echoed);
    return echoed;
  }
}

/**
 * A definition as Discord returns it from GET. A command created without `integration_types` comes back with
 * `[0]` (GUILD_INSTALL), and without `contexts` with `null` (discord/discord-api-docs#6744).
 */
export function echoCommand(definition: Json, where: { guildId?: string | undefined; index?: number } = {}): Json {
  const type = definition['type'] ?? 1;
  const echoed: Json = {
    id: String(1_200_000_000_000_000_000n + BigInt(where.index ?? 0)),
    application_id: APPLICATION_ID,
    version: '1250000000000000001',
    default_member_permissions: null,
    type,
    name: definition['name'],
    name_localizations: definition['name_localizations'] ?? null,
    description: definition['description'] ?? '',
    description_localizations: definition['description_localizations'] ?? null,
    dm_permission: true,
    contexts: definition['contexts'] ?? null,
    integration_types: definition['integration_types'] ?? [0],
    nsfw: false,
    ...(where.guildId ? { guild_id: where.guildId } : {}),
  };
  if (definition['default_member_permissions'] !== undefined) echoed['default_member_permissions'] = definition['default_member_permissions'];
  const options = definition['options'];
  if (Array.isArray(options) && options.length > 0) echoed['options'] = options.map((o: Json) => echoOption(o));
  return echoed;
}

function echoOption(option: Json): Json {
  const { required, choices, options, ...rest } = option;
  const echoed: Json = {
    ...rest,
    name_localizations: option['name_localizations'] ?? null,
    description_localizations: option['description_localizations'] ?? null,
  };
  if (required === true) echoed['required'] = true;
  if (Array.isArray(choices)) echoed['choices'] = choices.map((c: Json) => ({ ...c, name_localizations: c['name_localizations'] ?? null }));
  if (Array.isArray(options)) echoed['options'] = options.map((o: Json) => echoOption(o));
  return echoed;
}
