/** The favorites store port: members' favorites and the showcase's claims, each changed atomically (core/favorites.ts). */
import type { FavoriteAdded, FavoriteEntry, FavoriteRemoved } from '../core/favorites.js';
import type { HistoryOwner } from '../core/history-entries.js';

/** Where favorites and the showcase's posts are kept. */
export interface FavoritesStore {
  /** Adds `entry` to its owner's favorites atomically (core/favorites.ts withFavorite); the record lives `keepMs` after. */
  add(owner: HistoryOwner, entry: FavoriteEntry, keepMs: number): Promise<FavoriteAdded>;
  /**
   * Removes result `jobId` from its owner's favorites atomically (core/favorites.ts withoutFavorite); the record lives
   * `keepMs` after. Nothing else (a showcase post of it stays).
   */
  remove(owner: HistoryOwner, jobId: string, keepMs: number): Promise<FavoriteRemoved>;
  /** The owner's favorites, newest first (an unreadable record reads as empty). */
  entries(owner: HistoryOwner): Promise<FavoriteEntry[]>;
  /**
   * Claims the showcase post of result `jobId` in `guildId` for one star (`holder`), atomically across processes:
   * `claimed` when nothing holds it (the claim lapses after `ttlMs` if never settled), `taken` when another star
   * claimed or posted it.
   */
  claimShowcase(guildId: string, jobId: string, claim: { holder: string; by: string; at: number }, ttlMs: number): Promise<'claimed' | 'taken'>;
  /**
   * Settles `holder`'s claim: posted (`messageId`), kept `keepMs`; or given up (undefined), so a later star may post
   * it. Nothing when the claim is no longer `holder`'s.
   */
  settleShowcase(guildId: string, jobId: string, holder: string, messageId: string | undefined, keepMs: number): Promise<void>;
}
