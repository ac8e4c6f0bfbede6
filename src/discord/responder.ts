/**
 * The service's Responder over a deferred Discord interaction: progress edits on the reply, delivery as cards with
 * their images (10 per message), each a new message under the reply, which then points at them (deferred-reply.ts
 * says why: real Discord refuses the documented single edit), and a hand-off to the channel — or the member's DMs —
 * when the 15-minute interaction token can no longer be used.
 */
import {
  AttachmentBuilder,
  ComponentType,
  DiscordAPIError,
  type APIMessage,
  type Client,
  type Message,
  type MessageCreateOptions,
  type REST,
  type RepliableInteraction,
} from 'discord.js';
import type { Logger } from 'pino';
import { UserFacingError } from '../errors.js';
import { t } from '../i18n/translate.js';
import { imageFileName } from './file-names.js';
import { spoilerMessage } from './spoiler-uploads.js';
import { shortenForDiscord } from './text.js';
import type { CostConfirmation, Delivery, DeliveryFile, ImageJob, JobProgress, Posted, ReplyAddress } from '../core/jobs.js';
import type { ImageUpload, Responder } from '../ports/responder.js';
import type { Clock } from '../ports/clock.js';
import type { PartialImage } from '../core/images.js';
import { progressEmbed, renderCostConfirmation, renderProgress } from './views/render.js';
import { resultCard, type CardPayload } from './views/result-card.js';
import { LiveReplyUpload } from './live-reply-upload.js';
import { postedOf, type PostedMessage } from './posted-message.js';
import { DeferredReply } from './deferred-reply.js';

/** Discord allows 10 attachments per message. */
const MAX_FILES_PER_MESSAGE = 10;
/** Interaction tokens live 15 minutes. */
const TOKEN_LIFETIME_MS = 15 * 60_000;
/** Stop using a token a little before that. */
const TOKEN_SAFE_LIFETIME_MS = 14 * 60_000;
/**
 * Only for an interaction that does not carry `attachment_size_limit` (every interaction has since 2025-04): Discord's
 * default upload limit, 20 MiB since discord-api-docs PR #8578 (2026-09-04). Sizes otherwise follow the interaction.
 */
const UNDECLARED_ATTACHMENT_LIMIT = 20 * 1024 * 1024;
/** Error codes that mean the interaction token is gone. */
const TOKEN_GONE_CODES = new Set([50027, 10015, 10062]);

/** Options for {@link DiscordResponder}. */
export interface DiscordResponderOptions {
  interaction: RepliableInteraction;
  client: Client;
  logger: Logger;
  clock: Clock;
  /** The deferred acknowledgement still in flight, if it was sent without waiting; every write awaits it. */
  acknowledged?: Promise<void> | undefined;
  /** REST client for edits of the reply (createInteractionWebhookRest); the client's own by default. */
  webhookRest?: REST | undefined;
}

/** See the module comment. */
export class DiscordResponder implements Responder {
  private readonly interaction: RepliableInteraction;
  private readonly client: Client;
  private readonly log: Logger;
  private readonly clock: Clock;
  private tokenGone = false;
  private shownPreview: PartialImage | undefined;
  readonly ready: Promise<void> | undefined;
  private readonly webhookRest: REST;
  /** The upload this responder opened: the only one deliver() completes (any other handle is abandoned). */
  private opened: LiveReplyUpload | undefined;
  /** The reply, and the cards posted under it. */
  private readonly reply: DeferredReply;

  constructor(options: DiscordResponderOptions) {
    this.interaction = options.interaction;
    this.client = options.client;
    this.log = options.logger;
    this.clock = options.clock;
    this.ready = options.acknowledged;
    this.webhookRest = options.webhookRest ?? options.client.rest;
    this.reply = new DeferredReply(this.webhookRest, this.interaction);
  }

  get replyAddress(): ReplyAddress {
    const { applicationId, token, createdTimestamp } = this.interaction;
    return { applicationId, interactionToken: token, tokenExpiresAt: createdTimestamp + TOKEN_LIFETIME_MS };
  }

  get maxFileBytes(): number {
    // discord.js types attachmentSizeLimit as always set, but copies it from the payload as is: an interaction that omits it leaves it undefined.
    const { attachmentSizeLimit } = this.interaction as { readonly attachmentSizeLimit?: number };
    return attachmentSizeLimit ?? UNDECLARED_ATTACHMENT_LIMIT;
  }

  async progress(update: JobProgress): Promise<void> {
    // Without an acknowledgement there is no reply to edit (the job is being cancelled).
    if (
      this.ready &&
      !(await this.ready.then(
        () => true,
        () => false,
      ))
    )
      return;
    if (!this.tokenUsable() || this.reply.pointing) return;
    const text = renderProgress(update, this.interaction.locale);
    // A preview over the upload limit is never posted (Discord would refuse the whole edit); the service makes them fit.
    const preview = update.stage === 'generating' && update.preview && update.preview.bytes.length <= this.maxFileBytes ? update.preview : undefined;
    const shown = preview ?? this.shownPreview;
    const embed = progressEmbed(text, shown && `preview.${shown.format}`);
    const message = { content: '', embeds: [embed], components: [], allowedMentions: { parse: [] } };
    if (preview && preview !== this.shownPreview) {
      // Each partial image is uploaded once, as the embed's image (an edit may upload one there, never into a V2
      // gallery: deferred-reply.ts); later ticks only change the text (PATCH keeps attachments).
      this.shownPreview = preview;
      const file = new AttachmentBuilder(preview.bytes, { name: `preview.${preview.format}` });
      await this.viaToken(() => this.reply.edit({ ...message, files: [file], attachments: [] }));
    } else {
      await this.viaToken(() => this.reply.edit(message));
    }
  }

  openUpload(job: ImageJob, options: { expectedImages: number; after: Promise<void> }): ImageUpload | undefined {
    if (this.opened || !this.tokenUsable() || options.expectedImages > MAX_FILES_PER_MESSAGE) return undefined;
    this.opened = new LiveReplyUpload({
      rest: this.webhookRest,
      interaction: this.interaction,
      prompt: job.request.prompt,
      expectedImages: options.expectedImages,
      maxImages: MAX_FILES_PER_MESSAGE,
      // The reply must no longer be loading when the follow-up starts, or Discord would make it an edit of the reply.
      startAfter: Promise.all([this.ready, options.after]).then(() => this.viaToken(() => this.reply.prepareForCard())),
    });
    return this.opened;
  }

  async deliver(delivery: Delivery, upload?: ImageUpload): Promise<Posted> {
    // Without an acknowledgement nothing can be delivered, so nothing is charged.
    await this.ready?.catch((err: unknown) => {
      throw new UserFacingError('job.unacknowledged', {}, { cause: err });
    });
    const chunks = chunk(delivery.files, MAX_FILES_PER_MESSAGE);
    // An upload already under way (at most 10 files) becomes the message, when this responder opened it and the token works.
    const live = upload !== undefined && upload === this.opened && this.tokenUsable() ? this.opened : undefined;
    if (upload && !live) await upload.abandon();
    const sent: PostedMessage[] = [];
    let firstImage = 0;
    for (const [i, files] of chunks.entries()) {
      const attachments = files.map((f, j) => toAttachment(delivery, f, i * MAX_FILES_PER_MESSAGE + j));
      const card = resultCard(
        delivery,
        attachments.map((a, j) => ({ name: a.name ?? '', original: files[j]?.original })),
        { index: i + 1, total: chunks.length, firstImage },
      );
      firstImage += files.filter((f) => f.original !== true).length;
      const payload = { ...card, files: attachments, allowedMentions: { parse: [] } };
      sent.push(postedOf(await this.post(delivery, payload, i === 0 ? live : undefined), delivery.job.origin.guildId));
    }
    const first = sent[0];
    if (first) await this.pointAt(first);
    return { messageIds: sent.map((m) => m.id), channelId: first?.channelId, guildId: first?.guildId, imageUrl: first?.imageUrl };
  }

  /** Turns the reply into a pointer at the first card; the images are delivered whatever happens to it. */
  private async pointAt(card: PostedMessage): Promise<void> {
    if (!this.tokenUsable()) return;
    try {
      await this.viaToken(() => this.reply.pointTo(card, card.channelId === this.interaction.channelId));
    } catch (err) {
      this.log.warn({ err }, 'could not point the reply at the result');
    }
  }

  /** Turns the reply into the cost question; its buttons carry the waiting request's id. */
  async confirmCost(confirmation: CostConfirmation): Promise<void> {
    await this.ready?.catch((err: unknown) => {
      throw new UserFacingError('job.unacknowledged', {}, { cause: err });
    });
    const { content, components } = renderCostConfirmation(confirmation);
    await this.reply.edit({ content, components, allowedMentions: { parse: [] } });
  }

  /**
   * Posts one message of a delivery, trying each way in turn until one works: the streamed upload (if it carries
   * this message), a plain follow-up under the reply, then the hand-off to the channel or a DM. Each failure is
   * logged (status and code only) and the next way tried; when every way failed, the member is told the images could
   * not be posted and the job is refunded (delivery.failed).
   */
  private async post(delivery: Delivery, payload: ResultPayload, live: LiveReplyUpload | undefined): Promise<APIMessage | Message> {
    const options = { ...payload, attachments: [] };
    const spoiler = delivery.spoiler === true;
    const viaReply = async (call: () => Promise<APIMessage | Message>) => (this.tokenUsable() ? this.viaToken(call) : undefined);
    const ways: [string, () => Promise<APIMessage | Message | undefined>][] = [];
    // eslint-disable-next-line no-restricted-syntax -- the ways' names label log lines (operators'), never a member's message
    if (live) ways.push(['streamed upload', () => viaReply(() => live.finish(options))]);
    ways.push(
      [
        'follow-up',
        async () => {
          // A streamed upload that failed is cut off first, so its request cannot land after the plain one.
          await live?.abandon();
          return viaReply(() => this.reply.post(options, spoiler));
        },
      ],
      ['hand-off', () => this.handOff(delivery, payload)],
    );
    for (const [way, attempt] of ways) {
      try {
        const sent = await attempt();
        if (sent !== undefined) return sent;
      } catch (err) {
        this.log.warn({ err, way }, 'could not post the images this way; trying the next');
      }
    }
    throw new UserFacingError('delivery.failed');
  }

  /** Posts in the channel, mentioning the member (above the card); when the bot cannot post there, sends a direct message. */
  private async handOff(delivery: Delivery, payload: ResultPayload): Promise<Message> {
    const requesterId = delivery.job.origin.requesterId;
    const content = t(delivery.job.origin.locale, 'result.handOff', { requester: `<@${requesterId}>` });
    const mention = { type: ComponentType.TextDisplay as const, content };
    const message: MessageCreateOptions = { ...payload, components: [mention, ...payload.components], allowedMentions: { users: [requesterId] } };
    const spoiler = delivery.spoiler === true;
    const channelId = delivery.job.origin.channelId;
    if (channelId && delivery.job.origin.guildId) {
      try {
        const channel = await this.client.channels.fetch(channelId);
        if (channel?.isSendable()) return await channel.send(spoilerMessage(channel, message, spoiler));
      } catch (err) {
        this.log.warn({ err, channelId }, 'channel hand-off failed; trying a direct message');
      }
    }
    const dm = await (await this.client.users.fetch(requesterId)).createDM();
    return dm.send(spoilerMessage(dm, message, spoiler));
  }

  private tokenUsable(): boolean {
    return !this.tokenGone && this.clock.now() - this.interaction.createdTimestamp < TOKEN_SAFE_LIFETIME_MS;
  }

  /** Runs a token-bound call; when Discord says the token is gone, remembers it and returns undefined. */
  private async viaToken<T>(call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof DiscordAPIError && TOKEN_GONE_CODES.has(Number(err.code))) {
        this.tokenGone = true;
        this.log.warn({ code: err.code }, 'interaction token expired; handing off to the channel');
        return undefined;
      }
      throw err;
    }
  }
}

/** One message of a delivery: its card, files, and no pings. */
interface ResultPayload extends CardPayload {
  files: AttachmentBuilder[];
  allowedMentions: { parse: never[] };
}

function toAttachment(delivery: Delivery, file: DeliveryFile, index: number): AttachmentBuilder {
  // An SVG original shares the number of the rendering before it: a-cat-1.png, a-cat-1.svg.
  const images = delivery.files.filter((f) => f.original !== true).length;
  const number = delivery.files.slice(0, index + 1).filter((f) => f.original !== true).length - 1;
  // A spoiler keeps its plain name: the upload says is_spoiler (spoiler-uploads.ts).
  const name = imageFileName(delivery.job.request.prompt, Math.max(number, 0), images, file.format);
  return new AttachmentBuilder(file.bytes, { name, description: shortenForDiscord(delivery.job.request.prompt, 1024) });
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
