/** The showcase poster port: a server's showcase channel, as the service checks and posts to it (implemented in src/discord). */

/** What the showcase's rules need to know of its channel. */
export interface ShowcaseChannel {
  /** Age-restricted: where a `moderation:low` result may go. */
  nsfw: boolean;
  /** The bot may see the channel, send messages and attach files there. */
  botCanPost: boolean;
}

/** One result posted to the showcase: its image, what it was made from, who made it and who starred it. */
export interface ShowcasePost {
  guildId: string;
  channelId: string;
  image: { bytes: Buffer; filename: string };
  prompt: string;
  authorId: string;
  starredBy: string;
  /** The result's own message. */
  link: string;
  /** Posted as a spoiler (the server's spoiler channels). */
  spoiler: boolean;
  /** The server's preferred language (Discord's `guild_locale`), the post's words are written in. */
  locale: string | null | undefined;
}

/** Where showcase posts go. */
export interface ShowcasePoster {
  /** The channel of `guildId` as the rules need it; undefined when it is gone or not the bot's to see. */
  channel(guildId: string, channelId: string): Promise<ShowcaseChannel | undefined>;
  /**
   * Posts `post` (mentions shown, never pinging) and answers its message's id.
   * @throws ShowcasePostError saying why it failed
   */
  post(post: ShowcasePost): Promise<{ messageId: string }>;
}
