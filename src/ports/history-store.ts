import type { HistoryEntry, HistoryOwner } from '../core/history-entries.js';

/** Where members' histories are kept. */
export interface HistoryStore {
  /** Adds `entry` to its owner's history atomically, dropping entries older than `keepFrom`; the record lives `keepMs`. */
  add(owner: HistoryOwner, entry: HistoryEntry, retention: { keepFrom: number; keepMs: number }): Promise<void>;
  /** The owner's history as stored, newest first (an unreadable record reads as empty). */
  entries(owner: HistoryOwner): Promise<HistoryEntry[]>;
  /** Deletes the owner's history from the store. */
  clear(owner: HistoryOwner): Promise<void>;
}
