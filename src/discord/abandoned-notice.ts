/**
 * Tells a member that their job was cancelled because the process running it died, and that they were not charged,
 * with a Re-roll button: an edit of the original reply while the interaction token lives (any process may use it),
 * else a message in the channel that mentions them, else a direct message (a server that installed only the
 * commands has no bot user to post in its channels).
 */
import { Routes, type APIChannel, type REST } from 'discord.js';
import type { Logger } from 'pino';
import type { AbandonedJobNotice, AbandonedJobNotifier } from '../ports/abandoned-job-notifier.js';
import type { Clock } from '../ports/clock.js';
import { textCard } from './views/result-card.js';
import { rerollButton } from './views/render.js';
import { inertText } from './text.js';
import { t } from '../i18n/translate.js';

/** An edit needs this much of the token's life left, so it is not cut off by the token's end. */
const TOKEN_MARGIN_MS = 60_000;
/** Room the prompt gets in the notice. */
const PROMPT_ROOM = 300;

/** Options of {@link DiscordAbandonedNotifier}. */
export interface DiscordAbandonedNotifierOptions {
  /** The bot's REST client (channel messages and DMs). */
  rest: REST;
  /** REST for interaction webhooks (createInteractionWebhookRest). */
  webhookRest: REST;
  clock: Clock;
  logger: Logger;
}

/** See the module comment. */
export class DiscordAbandonedNotifier implements AbandonedJobNotifier {
  readonly #options: DiscordAbandonedNotifierOptions;

  constructor(options: DiscordAbandonedNotifierOptions) {
    this.#options = options;
  }

  async tell(notice: AbandonedJobNotice): Promise<void> {
    const { rest, webhookRest, clock, logger } = this.#options;
    const log = logger.child({ module: 'abandoned-notice', jobId: notice.jobId });
    const text = t(notice.locale, 'notice.abandoned', { prompt: inertText(notice.prompt, PROMPT_ROOM) });
    const rows = [rerollButton(notice.jobId, notice.locale)];
    const { reply } = notice;
    if (reply && reply.tokenExpiresAt - clock.now() > TOKEN_MARGIN_MS) {
      try {
        const route = Routes.webhookMessage(reply.applicationId, reply.interactionToken, '@original');
        await webhookRest.patch(route, { body: { ...textCard([text], { rows }), attachments: [], allowed_mentions: { parse: [] } }, auth: false });
        return;
      } catch (err) {
        log.warn({ err }, 'could not edit the original reply; posting in the channel instead');
      }
    }
    const mention = { ...textCard([`<@${notice.requesterId}> ${text}`], { rows }), allowed_mentions: { users: [notice.requesterId] } };
    if (notice.guildId !== null && notice.channelId !== null) {
      try {
        await rest.post(Routes.channelMessages(notice.channelId), { body: mention });
        return;
      } catch (err) {
        log.warn({ err }, 'could not post in the channel; sending a direct message instead');
      }
    }
    const dm = (await rest.post(Routes.userChannels(), { body: { recipient_id: notice.requesterId } })) as APIChannel;
    await rest.post(Routes.channelMessages(dm.id), { body: mention });
  }
}
