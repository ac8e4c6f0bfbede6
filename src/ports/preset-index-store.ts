/** The names of saved styles each owner keeps (issue 32), changed atomically so two saves at once never lose one or pass the limit. */

/** What adding a name did. */
export type PresetIndexAdd = 'added' | 'present' | 'full';

/** Where each owner's list of style names is kept. */
export interface PresetIndexStore {
  /** Adds `name` to `owner`'s names unless it is there (`present`) or `limit` names are (`full`), atomically; kept `keepMs`. */
  add(owner: string, name: string, limit: number, keepMs: number): Promise<PresetIndexAdd>;
  /** Removes `name` from `owner`'s names, atomically; whether it was there. */
  remove(owner: string, name: string, keepMs: number): Promise<boolean>;
  /** `owner`'s names, in the order they were added (an unreadable record reads as none). */
  names(owner: string): Promise<string[]>;
}
