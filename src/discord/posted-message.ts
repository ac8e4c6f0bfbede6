/**
 * Where a message the bot posted is, read from Discord's answer (a webhook's APIMessage or a discord.js Message):
 * what a delivery reports to the service (Posted) and the member's history keeps.
 */
import type { APIMessage, Message } from 'discord.js';
import { cardImages, firstImageUrl } from './message-images.js';

/** One posted message: its id, channel and server (null in a direct message), and its first image URL. */
export interface PostedMessage {
  id: string;
  channelId: string;
  guildId: string | null;
  imageUrl: string | undefined;
}

/**
 * Where a posted message is. A webhook's answer (a follow-up, an edit of the reply) does not name the server; the
 * reply is in the channel the member asked from, so it is the job's. The first image is read from the attachments
 * or, on a card (discord-api-docs#8277: `attachments` is empty there), from its gallery.
 */
export function postedOf(message: APIMessage | Message, jobGuildId: string | null): PostedMessage {
  if ('channel_id' in message) {
    return { id: message.id, channelId: message.channel_id, guildId: jobGuildId, imageUrl: firstImageUrl(message) };
  }
  return { id: message.id, channelId: message.channelId, guildId: message.guildId, imageUrl: cardImages(message)[0]?.url };
}
