/**
 * The follow-up that carries the result card (a new message under the reply: deferred-reply.ts), sent while the
 * gateway's answer is still arriving (the service's ImageUpload over Discord), so it lands right after the answer's
 * last byte instead of one upload later. The body ends only when deliver() completes it; an abandoned upload is cut
 * off, which posts nothing.
 */
import { MessagePayload, type APIMessage, type InteractionEditReplyOptions, type REST, type RepliableInteraction } from 'discord.js';
import { imageFileName } from './file-names.js';
import { sniffImageFormat } from '../core/image-rules.js';
import type { ImageUpload } from '../ports/responder.js';
import { MultipartBody } from './multipart-body.js';
import { followUpRoute, mediaTypeOf } from './original-reply.js';

/** Bytes needed to tell png, jpeg and webp apart (RIFF….WEBP). */
const SNIFF_BYTES = 12;

/** Options for {@link LiveReplyUpload}. */
export interface LiveReplyUploadOptions {
  rest: REST;
  interaction: RepliableInteraction;
  /** Names the files, as the usual delivery does. */
  prompt: string;
  /** Images the request asked for (names are numbered to its width). */
  expectedImages: number;
  /** Files one message may carry; a further image makes the upload give up. */
  maxImages: number;
  /**
   * The request is sent once this settles (the acknowledgement and the last progress edit have landed, and the reply
   * no longer loads: a follow-up would otherwise edit it).
   */
  startAfter: Promise<unknown>;
}

/**
 * Each image becomes a `files[n]` part the moment its first bytes are decoded, and its bytes follow as they are
 * decoded. The body ends (payload_json, then the closing boundary) only when deliver() completes it, after the
 * whole answer was checked; until then Discord holds an unfinished request, which a cut-off connection discards.
 * So an upload that is abandoned — the answer failed, an image turned out too large, the member's reply went
 * away — posts nothing, and the result is delivered (or the failure reported) the usual way.
 */
export class LiveReplyUpload implements ImageUpload {
  private readonly options: LiveReplyUploadOptions;
  private readonly body = new MultipartBody();
  private readonly abort = new AbortController();
  private readonly complete: Buffer[] = [];
  /** The image being written, and its first pieces while its format is not known yet. */
  private current = -1;
  private head: Buffer[] | undefined;
  private headBytes = 0;
  private sent: Promise<APIMessage> | undefined;
  private abandoned = false;

  constructor(options: LiveReplyUploadOptions) {
    this.options = options;
  }

  get images(): readonly Buffer[] {
    return this.complete;
  }

  write(index: number, bytes: Buffer): boolean {
    if (this.abandoned) return false;
    if (index !== this.current) {
      if (index !== this.complete.length || index >= this.options.maxImages) return this.giveUp();
      this.current = index;
      this.head = [];
      this.headBytes = 0;
    }
    if (!this.head) {
      this.body.writeFile(bytes);
      return true;
    }
    this.head.push(bytes);
    this.headBytes += bytes.length;
    return this.headBytes < SNIFF_BYTES || this.openPart();
  }

  end(index: number, bytes: Buffer): void {
    if (this.abandoned || index !== this.current) return;
    if (this.head && !this.openPart()) return;
    this.body.endFile(bytes);
    this.complete.push(bytes);
  }

  async abandon(): Promise<void> {
    if (!this.abandoned) {
      this.abandoned = true;
      this.body.fail(new Error('upload abandoned'));
      this.abort.abort();
    }
    await this.sent?.catch(() => undefined);
  }

  /**
   * Ends the body with the message (`options` as for editReply, its `files` being the images written, in order)
   * and resolves with the posted message once Discord has answered.
   */
  async finish(options: InteractionEditReplyOptions): Promise<APIMessage> {
    if (this.abandoned || !this.sent || this.current !== this.complete.length - 1) throw new Error('the upload is not complete');
    const { body } = MessagePayload.create(this.options.interaction.webhook, options).resolveBody();
    this.body.field('payload_json', JSON.stringify(body), 'application/json');
    this.body.close();
    return this.sent;
  }

  /** Opens the current image's part once its format is known from its first bytes; false (given up) if unknown. */
  private openPart(): boolean {
    const head = this.head ?? [];
    const format = sniffImageFormat(Buffer.concat(head, Math.min(this.headBytes, SNIFF_BYTES)));
    if (!format) return this.giveUp();
    const name = imageFileName(this.options.prompt, this.current, this.options.expectedImages, format);
    this.body.beginFile(`files[${this.current}]`, name, mediaTypeOf(name));
    for (const piece of head) this.body.writeFile(piece);
    this.head = undefined;
    this.sent ??= this.send();
    return true;
  }

  private send(): Promise<APIMessage> {
    const sending = (async () => {
      await this.options.startAfter;
      if (this.abandoned) throw new Error('upload abandoned');
      const route = followUpRoute(this.options.interaction);
      const headers = { 'content-type': this.body.contentType };
      return (await this.options.rest.post(route, { body: this.body, passThroughBody: true, headers, auth: false, signal: this.abort.signal })) as APIMessage;
    })();
    // Awaited by finish() or abandon(); an upload dropped before either must not leave an unhandled rejection.
    sending.catch(() => undefined);
    return sending;
  }

  private giveUp(): false {
    // Not awaited: abandon() never rejects (it swallows the request's failure), and finish() refuses an abandoned upload.
    void this.abandon();
    return false;
  }
}
