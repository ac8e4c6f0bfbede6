/**
 * Per-key serialisation within one process. keyv has no atomic increment or compare-and-set, so every
 * read-modify-write of one record runs under the lock of its key. Locks of different keys never wait on each
 * other, and a key's entry is dropped as soon as its queue is empty, so the map stays as small as the number of
 * keys in use right now.
 */
export class KeyedMutex {
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `task` once every earlier task for `key` has settled; resolves or rejects with its outcome. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => current);
    this.#tails.set(key, tail);
    try {
      await previous;
      return await task();
    } finally {
      release();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }

  /** Number of keys with a running or queued task (for tests and diagnostics). */
  get size(): number {
    return this.#tails.size;
  }
}
