/**
 * An interaction's reply (the deferred "thinking…" message, or the message a clicked button sits on) and the cards
 * posted under it, on Discord as it is rather than as its documents describe it:
 * - an edit that shows a file it uploads in a Components V2 gallery or file component is refused with 400
 *   "unfurled media attachment not found" (discord/discord-api-docs#7529, open), so a card with new files is always
 *   a new message: a follow-up;
 * - a follow-up sent while the "thinking…" message still loads edits that message instead (deprecated but live,
 *   discord-platform.md §1.5), and would meet the same refusal, so the reply is edited at least once before a card
 *   follows it;
 * - progress is an embed, whose image (the preview) an edit may upload, never a V2 gallery.
 * Once the cards are posted the reply is a short pointer to them: "⬇️ below" when it had to be edited before the
 * card, else "✅ Done" with a link to it. Either way one request more than Discord's documented single edit, and no
 * reply is ever left "thinking…".
 */
import { type APIMessage, type InteractionEditReplyOptions, type REST, type RepliableInteraction } from 'discord.js';
import { t } from '../i18n/translate.js';
import { messageLink } from '../core/history-entries.js';
import { editOriginalReply, postFollowUp } from './original-reply.js';

/** The reply's state: Discord's "thinking…", showing something of ours (progress, a question), or pointing at the cards. */
type ReplyState = 'loading' | 'shown' | 'pointing';

/** Where a posted card is, for the pointer's link. */
export interface CardPlace {
  id: string;
  channelId: string;
  guildId: string | null;
}

/** See the module comment. */
export class DeferredReply {
  readonly #rest: REST;
  readonly #interaction: RepliableInteraction;
  #state: ReplyState | undefined;
  /** Set when the pointer was written before the card was posted: it says "below" and names no message. */
  #pointsBelow = false;

  constructor(rest: REST, interaction: RepliableInteraction) {
    this.#rest = rest;
    this.#interaction = interaction;
  }

  /** True once the reply points at the cards: progress no longer goes there. */
  get pointing(): boolean {
    return this.#state === 'pointing';
  }

  /** Edits the reply (progress, a question); nothing once it points at the cards. */
  async edit(options: InteractionEditReplyOptions): Promise<void> {
    if (this.pointing) return;
    await editOriginalReply(this.#rest, this.#interaction, options);
    this.#state = 'shown';
  }

  /**
   * Posts a card (with its files, as spoilers when `spoiler`) as a new message under the reply, after making sure the
   * reply no longer loads.
   */
  async post(options: InteractionEditReplyOptions, spoiler = false): Promise<APIMessage> {
    await this.prepareForCard();
    return postFollowUp(this.#rest, this.#interaction, options, spoiler);
  }

  /**
   * Makes the reply stop loading before a follow-up, which would otherwise edit it: it becomes the pointer ("your
   * images are just below"). Nothing when it already shows something.
   */
  async prepareForCard(): Promise<void> {
    if (this.state() !== 'loading') return;
    await editOriginalReply(this.#rest, this.#interaction, pointer(t(this.#interaction.locale, 'result.pointer.below')));
    this.#state = 'pointing';
    this.#pointsBelow = true;
  }

  /**
   * Turns the reply into a pointer at `card` (posted under it, in the channel, or in a direct message): a link,
   * unless the reply already says "below" and the card is there.
   */
  async pointTo(card: CardPlace, below: boolean): Promise<void> {
    if (this.#pointsBelow && below) return;
    const link = messageLink({ guildId: card.guildId, channelId: card.channelId, messageId: card.id });
    await editOriginalReply(this.#rest, this.#interaction, pointer(t(this.#interaction.locale, 'result.pointer.link', { link })));
    this.#state = 'pointing';
    this.#pointsBelow = false;
  }

  /**
   * Loading until something of ours was written, when the acknowledgement was a deferred reply (discord.js sets
   * `ephemeral` only then); a component's own message (deferUpdate, update) never loads.
   */
  private state(): ReplyState {
    this.#state ??= this.#interaction.deferred && this.#interaction.ephemeral !== null ? 'loading' : 'shown';
    return this.#state;
  }
}

/** The pointer's message: text only, the progress embed and its preview gone. */
function pointer(content: string): InteractionEditReplyOptions {
  return { content, embeds: [], components: [], attachments: [], allowedMentions: { parse: [] } };
}
