/** The guild expressions port: a server's custom emoji and stickers, as the service adds them (implemented in src/discord). */
import type { ExpressionKind, ExpressionWords } from '../core/expressions.js';

/** An emoji or sticker to add: its image is a PNG already made to the kind's rules (core/expressions.ts). */
export interface NewExpression extends ExpressionWords {
  kind: ExpressionKind;
  guildId: string;
  /** The PNG. */
  image: Buffer;
  /** Who asked for it: named in the server's audit log. */
  byUserId: string;
}

/** An emoji or sticker as the server now has it. */
export interface AddedExpression {
  id: string;
  name: string;
}

/** Where a server's emoji and stickers are added. */
export interface GuildExpressions {
  /**
   * Adds `expression` to its server; `signal` gives up (a wait for Discord's rate limit included).
   * @throws ExpressionRefusedError when Discord refuses it (or cannot be reached), saying why
   */
  add(expression: NewExpression, signal?: AbortSignal): Promise<AddedExpression>;
}
