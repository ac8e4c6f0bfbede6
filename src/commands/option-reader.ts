/**
 * Options read through a reader typed from the command's own definition (issue 30): `read.string('prompt')` compiles
 * only if the definition has a string option `prompt`, so renaming an option in the data fails to compile where it is
 * read. A required option reads as its value, an optional one as the value or undefined, and an option with choices
 * as the union of its choices' values (Discord accepts nothing else). A required option missing at run time throws,
 * as discord.js's `getString(name, true)` does. Subcommands are read the same way: {@link subcommandOf} names the one
 * chosen (typed as the definition's subcommand names), {@link readSubcommand} reads its options.
 *
 * The definitions keep their literal names only when declared through {@link chatInputData} (a `const` type
 * parameter; `satisfies` alone widens names to string).
 */
import { ApplicationCommandOptionType as Type, type ChatInputCommandInteraction, type RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import { UserFacingError } from '../errors.js';

/** discord.js's option resolver of a chat-input interaction. */
type Resolver = ChatInputCommandInteraction['options'];
/** A getter of the resolver: the option's value, or null when it was not given (and not `required`). */
type Getter<K extends keyof Resolver> = (name: string, required?: boolean) => Get<K> | null;
/** What a getter of the resolver returns for a given option. */
type Get<K extends keyof Resolver> = Resolver[K] extends (...args: never) => infer R ? NonNullable<R> : never;

/** What the reader reads options from: the interaction's resolver (or a test's fake with the same getters). */
export interface OptionSource {
  getString: Getter<'getString'>;
  getInteger: Getter<'getInteger'>;
  getNumber: Getter<'getNumber'>;
  getBoolean: Getter<'getBoolean'>;
  getUser: Getter<'getUser'>;
  getMember: (name: string) => Get<'getMember'> | null;
  getRole: Getter<'getRole'>;
  getChannel: Getter<'getChannel'>;
  getAttachment: Getter<'getAttachment'>;
  getSubcommand: (required: true) => string;
}

/** What the reader needs of an option's definition. */
export interface OptionDefinition {
  readonly type: Type;
  readonly name: string;
  readonly required?: boolean | undefined;
  readonly options?: readonly OptionDefinition[] | undefined;
}

/** A command's (or a subcommand's) option definitions, as a union; never when it has none. */
export type OptionsOf<D> = D extends { readonly options?: readonly (infer O)[] | undefined } ? (unknown extends O ? never : O) : never;

/** The names of the options of type `T`. */
type Named<O, T extends Type> = O extends { readonly type: T; readonly name: infer N } ? N : never;
/** The definition (or definitions) named `N`. */
type Definition<O, N> = O extends { readonly name: infer M } ? (N extends M ? O : never) : never;
/** A choice's values when the option has choices, else `V`. */
type Chosen<O, V> = [O] extends [{ readonly choices: readonly { readonly value: infer C }[] }] ? C & V : V;
/** The value of option `N`: undefined too unless it is required. */
type Value<O, N, V> = [Definition<O, N>] extends [{ readonly required: true }] ? Chosen<Definition<O, N>, V> : Chosen<Definition<O, N>, V> | undefined;

/** Reads options `O` by name; each method takes only the names of options of its type. */
export interface OptionReader<O> {
  string: <N extends Named<O, Type.String>>(name: N) => Value<O, N, string>;
  integer: <N extends Named<O, Type.Integer>>(name: N) => Value<O, N, number>;
  number: <N extends Named<O, Type.Number>>(name: N) => Value<O, N, number>;
  boolean: <N extends Named<O, Type.Boolean>>(name: N) => Value<O, N, boolean>;
  user: <N extends Named<O, Type.User>>(name: N) => Value<O, N, Get<'getUser'>>;
  /** The member a user option names, with their roles (absent outside servers). */
  member: (name: Named<O, Type.User>) => Get<'getMember'> | undefined;
  role: <N extends Named<O, Type.Role>>(name: N) => Value<O, N, Get<'getRole'>>;
  channel: <N extends Named<O, Type.Channel>>(name: N) => Value<O, N, Get<'getChannel'>>;
  attachment: <N extends Named<O, Type.Attachment>>(name: N) => Value<O, N, Get<'getAttachment'>>;
}

/** A chat command's registration data with its literal option names and types kept (what {@link OptionReader} is typed from). */
export function chatInputData<const D extends RESTPostAPIChatInputApplicationCommandsJSONBody>(data: D): D {
  return data;
}

/** The reader of `definitions`' options in `options`. */
export function readOptions<const O extends OptionDefinition>(options: OptionSource, definitions: readonly O[] | undefined): OptionReader<O> {
  return narrowed(anyReader(options, definitions));
}

/** A reader of any name: what discord.js read, undefined for an option not given. */
type AnyReader = { [K in keyof OptionReader<never>]: (name: string) => unknown };

function anyReader(options: OptionSource, definitions: readonly OptionDefinition[] | undefined): AnyReader {
  const required = new Set(definitions?.filter((d) => d.required === true).map((d) => d.name));
  const must = (name: string) => required.has(name);
  return {
    string: (name) => options.getString(name, must(name)) ?? undefined,
    integer: (name) => options.getInteger(name, must(name)) ?? undefined,
    number: (name) => options.getNumber(name, must(name)) ?? undefined,
    boolean: (name) => options.getBoolean(name, must(name)) ?? undefined,
    user: (name) => options.getUser(name, must(name)) ?? undefined,
    member: (name) => options.getMember(name) ?? undefined,
    role: (name) => options.getRole(name, must(name)) ?? undefined,
    channel: (name) => options.getChannel(name, must(name)) ?? undefined,
    attachment: (name) => options.getAttachment(name, must(name)) ?? undefined,
  };
}

/**
 * The one cast of the kit: {@link anyReader} returns what discord.js read for any name; the types narrow it to the
 * definitions' names, requiredness and choices, which Discord checked before the interaction reached us.
 */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- R is the type the caller narrows to (the point of the helper)
function narrowed<R>(reader: AnyReader): R {
  return reader as unknown as R;
}

/** The subcommands of a command's definition. */
type SubcommandsOf<D> = Extract<OptionsOf<D>, { readonly type: Type.Subcommand }>;
/** The names of a command's subcommands. */
export type SubcommandName<D> = SubcommandsOf<D>['name'];
/** The reader of subcommand `S`'s options. */
export type SubcommandReader<D, S> = OptionReader<OptionsOf<Definition<SubcommandsOf<D>, S>>>;

/** The subcommand the member chose, one of `data`'s; another (a definition out of date) is refused as invalid input. */
export function subcommandOf<const D extends { readonly options?: readonly OptionDefinition[] | undefined }>(
  options: OptionSource,
  data: D,
): SubcommandName<D> {
  const name = options.getSubcommand(true);
  const known = (definition: OptionDefinition): definition is SubcommandsOf<D> => definition.type === Type.Subcommand && definition.name === name;
  const chosen = data.options?.find(known);
  if (chosen === undefined) throw new UserFacingError('input.invalid', { param: 'subcommand' });
  return chosen.name;
}

/** The reader of subcommand `name`'s options. */
export function readSubcommand<const D extends { readonly options?: readonly OptionDefinition[] | undefined }, S extends SubcommandName<D>>(
  options: OptionSource,
  data: D,
  name: S,
): SubcommandReader<D, S> {
  const definition = data.options?.find((o) => o.type === Type.Subcommand && o.name === name);
  return narrowed(anyReader(options, definition?.options));
}
