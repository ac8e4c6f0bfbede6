/**
 * Dispatching interactions over the gateway: slash commands, autocomplete, buttons, modal submits and message
 * context menus. Each call returns its handle at once; the bot's requests are recorded on it.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Gateway } from './gateway.js';
import { InteractionRecord } from './handle.js';
import { envelope, modalComponents, resolveOptions } from './interaction-payloads.js';
import { InteractionKind } from './rules.js';
import type { EmulatorState } from './state.js';
import type { EmulatedMessage, InteractionContext, InteractionHandle, SlashOption } from './types.js';

interface DispatchSpec {
  kind: number;
  data: Record<string, unknown>;
  responseType: number;
  message?: EmulatedMessage | undefined;
  /** Channel the interaction happens in when it is tied to a message (component source, context-menu target). */
  channelId?: string | undefined;
}

export class InteractionDispatcher {
  private readonly state: EmulatorState;
  private readonly gateway: Gateway;

  constructor(state: EmulatorState, gateway: Gateway) {
    this.state = state;
    this.gateway = gateway;
  }

  slash(name: string, options: SlashOption[], ctx: InteractionContext): InteractionHandle {
    return this.dispatch(ctx, { kind: InteractionKind.command, data: this.commandData(name, 1, options, ctx), responseType: 20 });
  }

  autocomplete(name: string, options: SlashOption[], ctx: InteractionContext): InteractionHandle {
    if (!JSON.stringify(options).includes('"focused":true')) throw new Error('Discord emulator: autocomplete needs one option with focused: true');
    const { resolved: _resolved, ...data } = this.commandData(name, 1, options, ctx);
    return this.dispatch(ctx, { kind: InteractionKind.autocomplete, data, responseType: 20 });
  }

  button(message: EmulatedMessage, customId: string, ctx: InteractionContext): InteractionHandle {
    return this.dispatch(ctx, { kind: InteractionKind.component, data: { custom_id: customId, component_type: 2 }, responseType: 0, message });
  }

  /** A string-select interaction on `message` (component_type 3). */
  select(message: EmulatedMessage, customId: string, values: string[], ctx: InteractionContext): InteractionHandle {
    return this.dispatch(ctx, { kind: InteractionKind.component, data: { custom_id: customId, component_type: 3, values }, responseType: 0, message });
  }

  modalSubmit(
    customId: string,
    fields: Record<string, string | readonly string[]>,
    ctx: InteractionContext & { message?: EmulatedMessage | undefined },
  ): InteractionHandle {
    const data = { custom_id: customId, components: modalComponents(fields) };
    return this.dispatch(ctx, { kind: InteractionKind.modalSubmit, data, responseType: 0, message: ctx.message });
  }

  messageCommand(name: string, target: EmulatedMessage, ctx: InteractionContext): InteractionHandle {
    const registered = this.state.commands.find(name, 3, this.state.guildOf(target.channel_id)?.id);
    const data = {
      id: registered?.['id'] ?? this.state.ids.next(),
      name,
      type: 3,
      target_id: target.id,
      resolved: { messages: { [target.id]: this.state.served(target) } },
      ...(registered?.['guild_id'] ? { guild_id: registered['guild_id'] } : {}),
    };
    return this.dispatch(ctx, { kind: InteractionKind.command, data, responseType: 23, channelId: ctx.channelId ?? target.channel_id });
  }

  private commandData(name: string, type: number, options: SlashOption[], ctx: InteractionContext): Record<string, unknown> {
    const registered = this.state.commands.find(name, type, guildOf(this.state, ctx)?.id);
    const resolved = resolveOptions(this.state, options, ctx);
    return {
      id: registered?.['id'] ?? this.state.ids.next(),
      name,
      type,
      options,
      ...(resolved ? { resolved } : {}),
      ...(registered?.['guild_id'] ? { guild_id: registered['guild_id'] } : {}),
    };
  }

  private dispatch(ctx: InteractionContext, spec: DispatchSpec): InteractionRecord {
    // Discord's ids encode Discord's time, so an interaction's age is measured on the emulator clock.
    const id = this.state.ids.next(this.state.clock.now());
    const token = randomBytes(48).toString('base64url');
    const built = envelope(this.state, ctx, { id, token, type: spec.kind }, spec.channelId ?? spec.message?.channel_id);
    const payload = { ...built.payload, data: spec.data, ...(spec.message ? { message: this.state.served(spec.message) } : {}) };
    const record = new InteractionRecord({
      id,
      token,
      kind: spec.kind,
      fromComponent: spec.message !== undefined,
      channelId: built.channelId,
      responseType: spec.responseType,
      attachmentSizeLimit: built.attachmentSizeLimit,
      issuedAt: this.state.clock.now(),
      payload,
      sourceMessageId: spec.message?.id,
      messages: this.state.messages.messages,
    });
    this.state.interactions.set(id, record);
    // A guild's interaction goes to the guild's shard, a DM's to shard 0.
    const guildId = typeof built.payload['guild_id'] === 'string' ? built.payload['guild_id'] : undefined;
    this.gateway.dispatch('INTERACTION_CREATE', payload, {
      guildId,
      onSent: () => {
        record.dispatchedAt = performance.now();
      },
    });
    return record;
  }
}

function guildOf(state: EmulatorState, ctx: InteractionContext) {
  return ctx.guild === undefined ? state.fixtures.guild : ctx.guild;
}
