/**
 * The Discord room, built from its part of the configuration: the discord.js client on its own REST Agent, the REST
 * client of interaction webhooks, and what the other rooms use of Discord: the one CDN download, the audit channel
 * poster, /show's posted images, the responder per interaction and the notice of an abandoned job.
 */
import { Client, GatewayIntentBits, Status, type RepliableInteraction, type REST } from 'discord.js';
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import { shardPlan, type Config } from '../config.js';
import type { Clock } from '../ports/clock.js';
import { DiscordAbandonedNotifier } from './abandoned-notice.js';
import { DiscordAuditTrail } from './audit-poster.js';
import { DiscordGuildExpressions } from './guild-expressions.js';
import { DiscordShowcasePoster } from './showcase-poster.js';
import { cdnDownloader, isAllowedAttachmentUrl, type CdnDownload } from './cdn-download.js';
import { loginWithin } from './login.js';
import { createInteractionWebhookRest } from './original-reply.js';
import { PendingDeletes } from './pending-deletes.js';
import { DiscordPostedImages, type DiscordPostedImagesOptions } from './posted-images.js';
import { DiscordResponder } from './responder.js';
import { createDiscordRestAgent } from './rest-agent.js';
import { boundedCaches, REST_SWEEPS } from './rest-sweeps.js';

/** What the Discord room reads of the configuration. */
export type DiscordConfig = Pick<
  Config,
  'DISCORD_TOKEN' | 'DISCORD_API_URL' | 'DISCORD_LOGIN_TIMEOUT_MS' | 'DISCORD_CDN_HOSTS' | 'ATTACHMENT_MAX_BYTES' | 'SHARD_COUNT' | 'SHARD_IDS'
>;

/** What the Discord room is built with besides its configuration. */
export interface DiscordParts {
  clock: Clock;
  logger: Logger;
  /** The Agent downloads from Discord's CDN go out on (the gateway's). */
  dispatcher: Dispatcher;
}

/** The built Discord room. */
export interface Discord {
  client: Client;
  /** The REST clients: discord.js's and the interaction webhooks' one. */
  rests: readonly [REST, REST];
  /** The one download from Discord's CDN (DISCORD_CDN_HOSTS). */
  download: CdnDownload;
  /** Whether the bot may download from `url` (DISCORD_CDN_HOSTS). */
  isAllowedImageUrl: (url: string) => boolean;
  audit: DiscordAuditTrail;
  /** Adds a server's emoji and stickers (Make emoji, Make sticker). */
  expressions: DiscordGuildExpressions;
  /** The servers' showcase channels (⭐). */
  showcase: DiscordShowcasePoster;
  notifier: DiscordAbandonedNotifier;
  /** Delete clicks waiting for their confirmation (in memory; they hold interaction tokens). */
  pendingDeletes: PendingDeletes;
  /** The images of a posted result, fetched again (/show) with their room in `memory`. */
  postedImages: (memory: DiscordPostedImagesOptions['memory']) => DiscordPostedImages;
  /** The responder of one interaction. */
  createResponder: (interaction: RepliableInteraction, ctx: { logger: Logger; acknowledgement?: Promise<void> | undefined }) => DiscordResponder;
  /** Whether the connection to Discord is up (readiness). */
  ready: () => boolean;
  /** Logs in (DISCORD_LOGIN_TIMEOUT_MS) and resolves with the application's id. */
  login: () => Promise<string>;
  /** Destroys the client and stops the REST clients' sweepers. */
  disconnect: () => Promise<void>;
  /** Closes the REST Agent, or with `cutOff` destroys it, ending requests still open; never rejects. */
  close: (cutOff: boolean) => Promise<void>;
}

/** Builds the Discord room (nothing connects until {@link Discord.login}). */
export function buildDiscord(config: DiscordConfig, parts: DiscordParts): Discord {
  const { clock, logger } = parts;
  const agent = createDiscordRestAgent();
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    // Nothing the bot writes pings anyone unless a message says so (the hand-off pings its requester).
    allowedMentions: { parse: [] },
    ...shardPlan(config),
    rest: { api: config.DISCORD_API_URL, agent, ...REST_SWEEPS },
    makeCache: boundedCaches(),
  });
  const webhookRest = createInteractionWebhookRest({ api: config.DISCORD_API_URL, agent, ...REST_SWEEPS });
  const download = cdnDownloader({ allowedHosts: config.DISCORD_CDN_HOSTS, dispatcher: parts.dispatcher });
  return {
    client,
    rests: [client.rest, webhookRest],
    download,
    isAllowedImageUrl: (url) => isAllowedAttachmentUrl(url, config.DISCORD_CDN_HOSTS),
    audit: new DiscordAuditTrail({ rest: client.rest, logger }),
    expressions: new DiscordGuildExpressions({ rest: client.rest }),
    showcase: new DiscordShowcasePoster({ client }),
    notifier: new DiscordAbandonedNotifier({ rest: client.rest, webhookRest, clock, logger }),
    pendingDeletes: new PendingDeletes(),
    postedImages: (memory) => new DiscordPostedImages({ rest: client.rest, download, memory, maxFileBytes: config.ATTACHMENT_MAX_BYTES, logger }),
    createResponder: (interaction, ctx) =>
      new DiscordResponder({ interaction, client, logger: ctx.logger, clock, acknowledged: ctx.acknowledgement, webhookRest }),
    ready: () => client.ws.status === Status.Ready,
    login: async () => {
      await loginWithin(client, { token: config.DISCORD_TOKEN, apiUrl: config.DISCORD_API_URL, timeoutMs: config.DISCORD_LOGIN_TIMEOUT_MS });
      // Set from the READY payload, so always there once login has resolved.
      if (!client.application) throw new Error('Discord sent no application with READY');
      return client.application.id;
    },
    disconnect: async () => {
      try {
        await client.destroy();
      } finally {
        stopSweepers(webhookRest);
      }
    },
    close: async (cutOff) => {
      await Promise.allSettled([cutOff ? agent.destroy() : agent.close()]);
    },
  };
}

/** What Client.destroy does for the client's own REST: stop its (unref'd) cache sweepers. */
function stopSweepers(rest: REST): void {
  rest.clearHashSweeper();
  rest.clearHandlerSweeper();
}
