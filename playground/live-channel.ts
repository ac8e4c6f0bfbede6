/**
 * The channel as it stands, live: after every REST request the Discord emulator answers, each message is rendered
 * again with the transcript's renderer (demo/transcript-message.ts) and what changed goes to the listeners (the page's
 * event stream): a message new or redrawn, a message deleted, a modal the bot opened, an answer Discord refused.
 */
import type { Harness } from '../test/e2e/harness.js';
import type { InteractionHandle } from '../test/emulators/discord/index.js';
import { renderMessage } from '../demo/transcript-message.js';
import { snapshotConversation } from '../demo/transcript-snapshot.js';

/** A modal the bot answered an interaction with (callback type 9), as the page shows it. */
export interface ModalEvent {
  readonly type: 'modal';
  readonly interactionId: string;
  /** The message whose component opened it, for the submit (a component-born modal's submit carries it). */
  readonly messageId: string | undefined;
  readonly customId: string;
  readonly title: string;
  readonly components: unknown;
}

/** What the page is told. */
export type LiveEvent =
  | { readonly type: 'message'; readonly id: string; readonly channelId: string; readonly html: string }
  | { readonly type: 'delete'; readonly id: string }
  | ModalEvent
  | { readonly type: 'notice'; readonly text: string };

export class LiveChannel {
  private readonly harness: Harness;
  private readonly handles: InteractionHandle[] = [];
  private readonly rendered = new Map<string, { channelId: string; html: string }>();
  private readonly modalsShown = new Set<string>();
  private readonly refusalsShown = new Set<string>();
  private readonly listeners = new Set<(event: LiveEvent) => void>();
  private readonly unsubscribe: () => void;
  private scheduled = false;

  constructor(harness: Harness) {
    this.harness = harness;
    this.unsubscribe = harness.discord.onRequest(() => this.schedule());
  }

  /** Remembers an interaction the page dispatched: the "used /imagine" line names its command, a modal it gets is shown. */
  track(handle: InteractionHandle): InteractionHandle {
    this.handles.push(handle);
    this.schedule();
    return handle;
  }

  /** Every interaction the page dispatched, oldest first. */
  tracked(): readonly InteractionHandle[] {
    return this.handles;
  }

  /** Every message as it stands now, oldest first (what a page that just connected is sent). */
  current(): LiveEvent[] {
    this.refresh();
    return [...this.rendered].map(([id, { channelId, html }]) => ({ type: 'message', id, channelId, html }));
  }

  /** Calls `listener` with every change from now on; returns the unsubscribe. */
  subscribe(listener: (event: LiveEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  close(): void {
    this.unsubscribe();
    this.listeners.clear();
  }

  /** One redraw for a burst of requests (an upload and its edit, a card and its buttons). */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.refresh();
    });
  }

  private refresh(): void {
    const input = snapshotConversation(this.harness, this.handles, 'playground');
    // The page loads attachments from the emulator's CDN, where they live.
    const files = new Map(input.messages.flatMap((message) => message.attachments.map((a) => [a.id, a.url] as const)));
    const shown = new Set<string>();
    const alive = new Set<string>();
    for (const message of input.messages) {
      alive.add(message.id);
      const interaction = message.interaction_metadata?.id;
      const continued = interaction !== undefined && shown.has(interaction);
      if (interaction !== undefined) shown.add(interaction);
      const html = renderMessage({ message, names: input.names, files, commands: input.commands, continued });
      if (this.rendered.get(message.id)?.html === html) continue;
      this.rendered.set(message.id, { channelId: message.channel_id, html });
      this.emit({ type: 'message', id: message.id, channelId: message.channel_id, html });
    }
    for (const id of [...this.rendered.keys()].filter((id) => !alive.has(id))) {
      this.rendered.delete(id);
      this.emit({ type: 'delete', id });
    }
    for (const handle of this.handles) this.announce(handle);
  }

  /** A modal the interaction was answered with, and an answer Discord refused, each told once. */
  private announce(handle: InteractionHandle): void {
    for (const ack of handle.acks) {
      if (ack.status >= 300 && !this.refusalsShown.has(`${handle.id}:${ack.receivedAt}`)) {
        this.refusalsShown.add(`${handle.id}:${ack.receivedAt}`);
        this.emit({
          type: 'notice',
          text: `Discord refused the bot's answer (HTTP ${ack.status}${ack.errorCode === undefined ? '' : `, code ${ack.errorCode}`})`,
        });
      }
      if (ack.status < 300 && ack.type === 9 && !this.modalsShown.has(handle.id)) {
        this.modalsShown.add(handle.id);
        const data = ack.body?.data ?? {};
        const source = handle.payload['message'] as { id?: string } | undefined;
        this.emit({
          type: 'modal',
          interactionId: handle.id,
          messageId: source?.id,
          customId: data.custom_id ?? '',
          title: data.title ?? '',
          components: data.components ?? [],
        });
      }
    }
  }

  private emit(event: LiveEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}
