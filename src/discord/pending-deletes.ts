/**
 * Deletes waiting for their confirmation (issue 31: Delete asks first). A Delete click is acknowledged by deferring
 * an update, which makes the result card that click's `@original`; the click is kept here, under a random id that
 * the confirmation's buttons carry, so a confirmation can delete the card through that click's own webhook token.
 * That works wherever the card is (a server with the bot in it, a commands-only install, a user install), where the
 * bot's channel routes would not. Kept in memory only (the token is a secret, never stored or logged), for less than
 * the token's 15 minutes, and at most {@link MAX_PENDING} at once; after a restart a confirmation has expired.
 */
import { randomUUID } from 'node:crypto';

/** The least a kept click must do: delete the message it deferred an update of. */
export interface DeletableReply {
  readonly user: { readonly id: string };
  deleteReply(): Promise<void>;
}

/** Confirmations kept at once; the oldest goes first. */
const MAX_PENDING = 500;
/** Less than an interaction token's 15 minutes. */
export const PENDING_DELETE_MS = 14 * 60_000;

/** See the module comment. */
export class PendingDeletes {
  readonly #pending = new Map<string, { click: DeletableReply; expiresAt: number }>();
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** Keeps `click` (whose update was deferred) and returns the id its confirmation carries. */
  hold(click: DeletableReply): string {
    this.#sweep();
    const id = randomUUID().replaceAll('-', '');
    this.#pending.set(id, { click, expiresAt: this.#now() + PENDING_DELETE_MS });
    if (this.#pending.size > MAX_PENDING) this.#pending.delete(this.#pending.keys().next().value ?? '');
    return id;
  }

  /** The click kept under `id` for `userId` (and forgets it), or undefined once expired, taken or someone else's. */
  take(id: string, userId: string): DeletableReply | undefined {
    this.#sweep();
    const kept = this.#pending.get(id);
    if (kept?.click.user.id !== userId) return undefined;
    this.#pending.delete(id);
    return kept.click;
  }

  /** How many are kept now. */
  get size(): number {
    return this.#pending.size;
  }

  #sweep(): void {
    const now = this.#now();
    for (const [id, kept] of this.#pending) if (kept.expiresAt <= now) this.#pending.delete(id);
  }
}
