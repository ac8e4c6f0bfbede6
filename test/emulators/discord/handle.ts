/**
 * One dispatched interaction: its server-side state (ack, token age, original message) and the handle tests hold.
 */
import type { EmulatedMessage, InteractionHandle, RecordedAck, RecordedRequest } from './types.js';

export interface InteractionInit {
  id: string;
  token: string;
  kind: number;
  /** A component interaction, or a modal submit opened from a component (may use callback types 6/7). */
  fromComponent: boolean;
  channelId: string;
  /** Message type of responses: 20 for slash commands, 23 for context menus, 19 (reply) otherwise. */
  responseType: number;
  attachmentSizeLimit: number;
  /** Emulator-clock time of dispatch; the ack deadline and token lifetime count from here. */
  issuedAt: number;
  payload: Record<string, unknown>;
  /** The message a component (or component-born modal) sits on. */
  sourceMessageId?: string | undefined;
  messages: ReadonlyMap<string, EmulatedMessage>;
}

/** Default timeout of waitFor/waitForAck: generous, so only a real hang fails. */
export const WAIT_TIMEOUT_MS = 20_000;

export class InteractionRecord implements InteractionHandle {
  readonly id: string;
  readonly token: string;
  readonly kind: number;
  readonly fromComponent: boolean;
  readonly channelId: string;
  readonly responseType: number;
  readonly attachmentSizeLimit: number;
  readonly issuedAt: number;
  readonly payload: Record<string, unknown>;
  readonly sourceMessageId: string | undefined;
  readonly acks: RecordedAck[] = [];
  readonly edits: RecordedRequest[] = [];
  readonly followUps: RecordedRequest[] = [];
  dispatchedAt = Number.NaN;
  /** Type of the accepted initial callback. */
  ackedType: number | undefined;
  /** The message `@original` refers to once acknowledged. */
  originalMessageId: string | undefined;
  /** Messages this interaction's token may address (original and follow-ups). */
  readonly messageIds = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private readonly messages: ReadonlyMap<string, EmulatedMessage>;

  constructor(init: InteractionInit) {
    this.id = init.id;
    this.token = init.token;
    this.kind = init.kind;
    this.fromComponent = init.fromComponent;
    this.channelId = init.channelId;
    this.responseType = init.responseType;
    this.attachmentSizeLimit = init.attachmentSizeLimit;
    this.issuedAt = init.issuedAt;
    this.payload = init.payload;
    this.sourceMessageId = init.sourceMessageId;
    this.messages = init.messages;
  }

  /** Re-evaluates every pending waitFor; called after each request recorded for this interaction. */
  notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  async waitForAck(): Promise<RecordedAck> {
    await this.waitFor((h) => h.acks.some(isAccepted));
    const ack = this.acks.find(isAccepted);
    if (!ack) throw new Error('unreachable: accepted ack vanished');
    return ack;
  }

  waitFor(predicate: (h: InteractionHandle) => boolean, timeoutMs = WAIT_TIMEOUT_MS): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        let done: boolean;
        try {
          done = predicate(this);
        } catch (err) {
          finish();
          reject(err instanceof Error ? err : new Error(String(err)));
          return;
        }
        if (!done) return;
        finish();
        resolve();
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`Interaction ${this.id}: condition not met within ${timeoutMs} ms. Recorded:\n${this.describe()}`));
      }, timeoutMs);
      const finish = (): void => {
        clearTimeout(timer);
        this.listeners.delete(check);
      };
      this.listeners.add(check);
      check();
    });
  }

  /** @original as it stands, or the newest follow-up that still exists once there is one (a result card). */
  lastMessage(): EmulatedMessage | undefined {
    const alive = [...this.messageIds].filter((id) => id !== this.originalMessageId && this.messages.has(id));
    const newest = alive.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)).at(-1);
    return this.messages.get(newest ?? this.originalMessageId ?? '');
  }

  /** @original as it stands (the reply), whatever follows it. */
  originalMessage(): EmulatedMessage | undefined {
    return this.originalMessageId === undefined ? undefined : this.messages.get(this.originalMessageId);
  }

  /** A readable summary of everything recorded, for timeout messages. */
  describe(): string {
    const line = (kind: string, r: { status: number; errorCode?: number | undefined }, detail: unknown) =>
      `  ${kind} ${r.status}${r.errorCode === undefined ? '' : ` code ${r.errorCode}`} ${(detail === undefined ? 'undefined' : JSON.stringify(detail)).slice(0, 300)}`;
    const lines = [
      `  dispatched: ${Number.isNaN(this.dispatchedAt) ? 'not yet written to a socket' : 'yes'}`,
      ...this.acks.map((a) => line('ack', a, a.body)),
      ...this.edits.map((e) => line(`${e.method} ${e.path}`, e, e.payload)),
      ...this.followUps.map((f) => line('follow-up', f, f.payload)),
    ];
    return lines.join('\n');
  }
}

function isAccepted(ack: RecordedAck): boolean {
  return ack.status >= 200 && ack.status < 300;
}
