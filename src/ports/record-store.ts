/**
 * A namespaced store of versioned records with expiry (button state, pending jobs).
 * Values are validated on read; an invalid record reads as undefined and is logged.
 */
export interface RecordStore<T> {
  get(id: string): Promise<T | undefined>;
  set(id: string, value: T, ttlMs: number): Promise<void>;
  delete(id: string): Promise<void>;
}
