/**
 * Where an interaction happened, read from the interaction itself (issue 29). discord.js builds `interaction.channel`
 * from its cache only: in a server that installed only the commands the bot has no cache at all, and in a thread it
 * never received (a private thread it is not in) neither the thread nor its parent is known, so a thread would count
 * as a channel of its own and an age-restricted channel as an ordinary one. Every interaction payload carries its
 * channel as an object (`type`, `nsfw`, and for a thread `parent_id`: discord-platform.md §1.2), which discord.js does
 * not keep; this reads it from the gateway's raw INTERACTION_CREATE packet, kept per interaction until it is handled.
 *
 * A thread's own object does not say whether its parent is age-restricted: that comes from the cache, and a parent
 * that is not known there reads as not age-restricted (moderation:low is refused, never let through). A thread whose
 * parent is unknown is reported as such (`parentId: null`), and the channel rules then fail closed.
 */
import { ChannelType, type BaseInteraction } from 'discord.js';
import { z } from 'zod';

/** The fields of an interaction's `channel` object the rules need. */
const PayloadChannel = z.object({ id: z.string(), type: z.number(), nsfw: z.boolean().optional(), parent_id: z.string().nullish() });
const InteractionPacket = z.object({ id: z.string(), channel: PayloadChannel.optional() });
type PayloadChannel = z.infer<typeof PayloadChannel>;

/** Interactions whose channel is kept at once at most (each is taken when its interaction is routed). */
const MAX_KEPT = 1_000;
const THREAD_TYPES: ReadonlySet<number> = new Set([ChannelType.AnnouncementThread, ChannelType.PublicThread, ChannelType.PrivateThread]);

/** The channel objects of interactions not routed yet, from discord.js's `raw` event. */
export class InteractionChannels {
  readonly #kept = new Map<string, PayloadChannel>();

  /** discord.js's `raw` listener (Events.Raw): keeps the channel of each INTERACTION_CREATE. */
  readonly onRaw = (packet: { t?: string | null; d?: unknown }): void => {
    if (packet.t !== 'INTERACTION_CREATE') return;
    const parsed = InteractionPacket.safeParse(packet.d);
    if (!parsed.success || !parsed.data.channel) return;
    this.#kept.set(parsed.data.id, parsed.data.channel);
    // Oldest first: an interaction discord.js dropped (never routed) cannot keep its entry for ever.
    if (this.#kept.size > MAX_KEPT) this.#kept.delete(this.#kept.keys().next().value ?? '');
  };

  /** Attaches the kept channel to `interaction` (read by {@link channelOf}) and forgets it here. */
  attach(interaction: BaseInteraction): void {
    const channel = this.#kept.get(interaction.id);
    if (!channel) return;
    this.#kept.delete(interaction.id);
    attached.set(interaction, channel);
  }

  /** How many are kept now (bounded by MAX_KEPT). */
  get size(): number {
    return this.#kept.size;
  }
}

const attached = new WeakMap<BaseInteraction, PayloadChannel>();

/** Where an interaction happened, as the server's rules need it. */
export interface ChannelPlace {
  /** For a thread: its parent's id, or null when it is not known. Undefined for anything but a thread. */
  parentChannelId: string | null | undefined;
  /** The channel, or for a thread its parent, is age-restricted (false when that is not known). */
  ageRestricted: boolean;
}

/** See the module comment; a DM is neither a thread nor age-restricted. */
export function channelOf(interaction: BaseInteraction): ChannelPlace {
  const payload = attached.get(interaction);
  const cached = interaction.channel;
  const type = payload?.type ?? cached?.type;
  if (!interaction.inGuild() || type === undefined) return { parentChannelId: undefined, ageRestricted: false };
  if (THREAD_TYPES.has(type)) {
    const parentId = payload?.parent_id ?? (cached?.isThread() ? cached.parentId : null) ?? null;
    const parent = parentId === null ? undefined : interaction.client.channels.cache.get(parentId);
    return { parentChannelId: parentId, ageRestricted: parent !== undefined && 'nsfw' in parent && parent.nsfw };
  }
  const nsfw = payload?.nsfw ?? (cached !== null && 'nsfw' in cached ? cached.nsfw : false);
  return { parentChannelId: undefined, ageRestricted: nsfw };
}
