/**
 * A hand-written interaction with just what the router and our handlers touch: the type guards, the
 * acknowledgement state (deferred, replied, ephemeral) and the response methods, which it records. Its state
 * changes follow discord.js 14 (InteractionResponses): editReply and followUp set `replied`; a response method
 * used in the wrong state throws, as discord.js does.
 */
import { MessageFlags, type AutocompleteInteraction, type Interaction } from 'discord.js';

export type FakeKind = 'chat' | 'message' | 'autocomplete' | 'button' | 'modal';
export type ResponseMethod = 'deferReply' | 'deferUpdate' | 'reply' | 'editReply' | 'followUp' | 'deleteReply' | 'respond';

/** One recorded response call, with the payload as given. */
export interface RecordedCall {
  method: ResponseMethod;
  payload: unknown;
}

export interface FakeInteractionInit {
  kind: FakeKind;
  id?: string | undefined;
  userId?: string | undefined;
  guildId?: string | null | undefined;
  commandName?: string | undefined;
  customId?: string | undefined;
  /** Option values by name. */
  options?: Record<string, string | number> | undefined;
  /** The focused option of an autocomplete interaction. */
  focused?: { name: string; value: string } | undefined;
}

/** The option reader, with discord.js's overloads so it is assignable to the real reader's methods. */
export class FakeOptions {
  readonly #values: Record<string, string | number>;
  readonly #focused: { name: string; value: string };

  constructor(values: Record<string, string | number>, focused: { name: string; value: string }) {
    this.#values = values;
    this.#focused = focused;
  }

  getString(name: string, required: true): string;
  getString(name: string, required?: boolean): string | null;
  getString(name: string, required = false): string | null {
    const value = this.#values[name];
    if (typeof value === 'string') return value;
    if (required) throw new TypeError(`required option ${name} missing`);
    return null;
  }

  getInteger(name: string, required: true): number;
  getInteger(name: string, required?: boolean): number | null;
  getInteger(name: string, required = false): number | null {
    const value = this.#values[name];
    if (typeof value === 'number') return value;
    if (required) throw new TypeError(`required option ${name} missing`);
    return null;
  }

  // The option kinds the fakes carry no values of: never given.
  getNumber(): null {
    return null;
  }
  getBoolean(): null {
    return null;
  }
  getUser(): null {
    return null;
  }
  getMember(): null {
    return null;
  }
  getRole(): null {
    return null;
  }
  getChannel(): null {
    return null;
  }
  getAttachment(): null {
    return null;
  }
  getSubcommand(): string {
    throw new TypeError('the fake options have no subcommand');
  }

  getFocused(full: true): { name: string; value: string };
  getFocused(full?: boolean): string | { name: string; value: string };
  getFocused(full = false): string | { name: string; value: string } {
    return full ? this.#focused : this.#focused.value;
  }
}

export class FakeInteraction {
  readonly kind: FakeKind;
  readonly id: string;
  readonly user: { id: string };
  readonly guildId: string | null;
  readonly commandName: string;
  readonly customId: string;
  readonly options: FakeOptions;
  deferred = false;
  replied = false;
  ephemeral: boolean | null = null;
  readonly calls: RecordedCall[] = [];
  /** Response methods that reject (after being recorded), to exercise failure paths. */
  readonly failing = new Set<ResponseMethod>();

  constructor(init: FakeInteractionInit) {
    this.kind = init.kind;
    this.id = init.id ?? '1300000000000000001';
    this.user = { id: init.userId ?? '200000000000000001' };
    this.guildId = init.guildId === undefined ? '300000000000000001' : init.guildId;
    this.commandName = init.commandName ?? '';
    this.customId = init.customId ?? '';
    this.options = new FakeOptions(init.options ?? {}, init.focused ?? { name: '', value: '' });
  }

  isAutocomplete(): boolean {
    return this.kind === 'autocomplete';
  }

  isChatInputCommand(): boolean {
    return this.kind === 'chat';
  }

  isMessageContextMenuCommand(): boolean {
    return this.kind === 'message';
  }

  isCommand(): boolean {
    return this.kind === 'chat' || this.kind === 'message';
  }

  isButton(): boolean {
    return this.kind === 'button';
  }

  isModalSubmit(): boolean {
    return this.kind === 'modal';
  }

  isRepliable(): boolean {
    return this.kind !== 'autocomplete';
  }

  async deferReply(options: { flags?: unknown } = {}): Promise<void> {
    this.#record('deferReply', options, !this.deferred && !this.replied);
    this.deferred = true;
    this.ephemeral = isEphemeral(options.flags);
  }

  /** Like discord.js: `deferred` becomes true, `ephemeral` stays unknown (null). */
  async deferUpdate(): Promise<void> {
    this.#record('deferUpdate', undefined, !this.deferred && !this.replied);
    this.deferred = true;
  }

  async reply(options: { content?: string; flags?: unknown }): Promise<void> {
    this.#record('reply', options, !this.deferred && !this.replied);
    this.replied = true;
    this.ephemeral = isEphemeral(options.flags);
  }

  async editReply(options: unknown): Promise<void> {
    this.#record('editReply', options, this.deferred || this.replied);
    this.replied = true;
  }

  async followUp(options: unknown): Promise<void> {
    this.#record('followUp', options, this.deferred || this.replied);
    this.replied = true;
  }

  async deleteReply(): Promise<void> {
    this.#record('deleteReply', undefined, this.deferred || this.replied);
  }

  async respond(choices: unknown): Promise<void> {
    this.#record('respond', choices, !this.replied);
    this.replied = true;
  }

  /** Payloads of one method, in call order. */
  payloadsOf(method: ResponseMethod): unknown[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.payload);
  }

  /** The method names called, in order. */
  get methods(): ResponseMethod[] {
    return this.calls.map((c) => c.method);
  }

  /**
   * The router and handlers are typed against discord.js's classes; this fake implements only the members they
   * use, so it is handed over through this one cast.
   */
  asInteraction(): Interaction {
    return this as unknown as Interaction;
  }

  asAutocomplete(): AutocompleteInteraction {
    return this as unknown as AutocompleteInteraction;
  }

  #record(method: ResponseMethod, payload: unknown, allowed: boolean): void {
    this.calls.push({ method, payload });
    if (!allowed) throw new Error(`${method} in the wrong state (deferred=${this.deferred}, replied=${this.replied})`);
    if (this.failing.has(method)) throw new Error(`${method} failed (scripted)`);
  }
}

function isEphemeral(flags: unknown): boolean {
  const list = Array.isArray(flags) ? flags : [flags];
  return list.some((f) => typeof f === 'number' && (f & MessageFlags.Ephemeral) !== 0);
}
