/**
 * Application-command registry: bulk overwrites per scope ('global' or a guild id), with ids that stay stable for
 * unchanged names and a version that changes when a definition does.
 */
import type { SnowflakeGenerator } from './fixtures.js';

type Command = Record<string, unknown>;

export class CommandRegistry {
  /** Every bulk overwrite, in order. */
  readonly puts: { scope: string; body: unknown[] }[] = [];
  private readonly scopes = new Map<string, Map<string, Command>>();
  private readonly ids: SnowflakeGenerator;
  private readonly applicationId: string;

  constructor(ids: SnowflakeGenerator, applicationId: string) {
    this.ids = ids;
    this.applicationId = applicationId;
  }

  /** Replaces a scope's commands with `body` and returns them as Discord echoes them. */
  overwrite(scope: string, body: Command[]): Command[] {
    this.puts.push({ scope, body: structuredClone(body) });
    const previous = this.scopes.get(scope) ?? new Map<string, Command>();
    const next = new Map<string, Command>();
    for (const definition of body) {
      const type = Number(definition['type'] ?? 1);
      const key = `${type}:${String(definition['name'])}`;
      const old = previous.get(key);
      const normalised = normalise(definition, type);
      const unchanged = old !== undefined && JSON.stringify(strip(old)) === JSON.stringify(normalised);
      next.set(key, {
        ...normalised,
        id: old?.['id'] ?? this.ids.next(),
        application_id: this.applicationId,
        version: unchanged ? old['version'] : this.ids.next(),
        ...(scope === 'global' ? {} : { guild_id: scope }),
      });
    }
    this.scopes.set(scope, next);
    return this.list(scope);
  }

  /** A scope's commands; without `withLocalizations`, as Discord lists them by default: no localization dictionaries. */
  list(scope: string, withLocalizations = true): Command[] {
    const commands = [...(this.scopes.get(scope)?.values() ?? [])];
    return withLocalizations ? commands : commands.map(withoutLocalizations);
  }

  /** The registered command an interaction would carry (guild scope first, then global). */
  find(name: string, type: number, guildId: string | undefined): Command | undefined {
    const key = `${type}:${name}`;
    return (guildId === undefined ? undefined : this.scopes.get(guildId)?.get(key)) ?? this.scopes.get('global')?.get(key);
  }
}

/** Fills the defaults Discord returns (description '' for context menus, default_member_permissions null, …). */
function normalise(definition: Command, type: number): Command {
  return {
    ...definition,
    type,
    description: definition['description'] ?? '',
    default_member_permissions: definition['default_member_permissions'] ?? null,
    nsfw: definition['nsfw'] ?? false,
  };
}

const LOCALIZATION_FIELDS = new Set(['name_localizations', 'description_localizations']);

function withoutLocalizations(value: Command): Command {
  const out: Command = {};
  for (const [key, field] of Object.entries(value)) {
    if (LOCALIZATION_FIELDS.has(key)) continue;
    out[key] = Array.isArray(field)
      ? field.map((item: unknown) => (typeof item === 'object' && item !== null ? withoutLocalizations(item as Command) : item))
      : field;
  }
  return out;
}

function strip(command: Command): Command {
  const { id: _id, application_id: _app, version: _version, guild_id: _guild, ...rest } = command;
  return rest;
}

/** File groups Discord's `file_types` takes; any other entry is a `.ext`. */
const FILE_GROUPS = ['image', 'video', 'audio'];
/** At most this many `file_types` entries per attachment option. */
const MAX_FILE_TYPES = 10;

/**
 * The first attachment option of a bulk overwrite whose `file_types` Discord refuses (more than 10 entries, or an
 * entry that is neither a group nor a dot-prefixed extension), as the form path of the error; undefined when all pass.
 * @see ../../../../shared/docs/discord-platform.md §1.7 ("file_types is new")
 */
export function fileTypesProblem(body: readonly Command[]): string[] | undefined {
  for (const [c, command] of body.entries()) {
    const options = Array.isArray(command['options']) ? (command['options'] as Command[]) : [];
    for (const [o, option] of options.entries()) {
      const types = option['file_types'];
      if (types === undefined) continue;
      const valid =
        Array.isArray(types) &&
        types.length <= MAX_FILE_TYPES &&
        types.every((t) => typeof t === 'string' && (FILE_GROUPS.includes(t) || /^\.[a-z0-9]{1,16}$/i.test(t)));
      if (!valid || option['type'] !== 11) return [String(c), 'options', String(o), 'file_types'];
    }
  }
  return undefined;
}

/** The most commands of each type one scope holds (doc §1.12): CHAT_INPUT, USER, MESSAGE. */
export const COMMAND_TYPE_LIMITS: Readonly<Record<number, number>> = { 1: 100, 2: 15, 3: 15 };
/** A context menu's name: 1–32 characters, mixed case and spaces allowed (and each localization's). */
const MENU_NAME = /^.{1,32}$/u;

/** Why Discord refuses a bulk overwrite's command list, or undefined when it takes it. */
export type CommandsProblem = { kind: 'count'; type: number; limit: number } | { kind: 'form'; path: string[]; code: string; message: string };

/**
 * The first problem Discord would refuse a bulk overwrite for, beyond `file_types` ({@link fileTypesProblem}): more
 * commands of one type than {@link COMMAND_TYPE_LIMITS}, two of one type with one name, or a context menu (USER or
 * MESSAGE) with options, a description, or a name (or localized name) not of 1–32 characters.
 */
export function commandsProblem(body: readonly Command[]): CommandsProblem | undefined {
  const counts = new Map<number, number>();
  const names = new Set<string>();
  for (const [c, command] of body.entries()) {
    const type = Number(command['type'] ?? 1);
    counts.set(type, (counts.get(type) ?? 0) + 1);
    const limit = COMMAND_TYPE_LIMITS[type];
    if (limit !== undefined && (counts.get(type) ?? 0) > limit) return { kind: 'count', type, limit };
    const key = `${type}:${String(command['name'])}`;
    if (names.has(key))
      return { kind: 'form', path: [String(c), 'name'], code: 'APPLICATION_COMMANDS_DUPLICATE_NAME', message: 'Application command names must be unique' };
    names.add(key);
    if (type === 2 || type === 3) {
      const problem = menuProblem(command);
      if (problem) return { kind: 'form', path: [String(c), ...problem.path], code: 'BASE_TYPE_BAD_VALUE', message: problem.message };
    }
  }
  return undefined;
}

function menuProblem(command: Command): { path: string[]; message: string } | undefined {
  if (command['options'] !== undefined) return { path: ['options'], message: 'Context menu commands cannot have options.' };
  const description = command['description'];
  if (description !== undefined && description !== '') return { path: ['description'], message: 'Context menu commands cannot have description.' };
  const localized = Object.entries((command['name_localizations'] ?? {}) as Record<string, unknown>);
  for (const [at, name] of [['', command['name']] as const, ...localized]) {
    if (typeof name !== 'string' || !MENU_NAME.test(name)) {
      return { path: at === '' ? ['name'] : ['name_localizations', at], message: 'Must be between 1 and 32 in length.' };
    }
  }
  return undefined;
}
