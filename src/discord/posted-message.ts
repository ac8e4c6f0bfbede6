/**
 * Where a message the bot posted is, read from Discord's answer (a webhook's APIMessage or a discord.js Message):
 * what a delivery reports to the service (Posted) and the member's history keeps.
 */
import type { APIMessage, Message } from 'discord.js';

/** One posted message: its id, channel and server (null in a direct message), and its first image URL. */
export interface PostedMessage {
  id: string;
  channelId: string;
  guildId: string | null;
  imageUrl: string | undefined;
}

/**
 * Where a posted message is. An edit of the reply (a webhook's answer) does not name the server; the reply is in the
 * channel the member asked from, so it is the job's.
 */
export function postedOf(message: APIMessage | Message, jobGuildId: string | null): PostedMessage {
  if ('channel_id' in message) {
    return { id: message.id, channelId: message.channel_id, guildId: jobGuildId, imageUrl: message.attachments[0]?.url };
  }
  return { id: message.id, channelId: message.channelId, guildId: message.guildId, imageUrl: message.attachments.first()?.url };
}
