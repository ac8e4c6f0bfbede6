import type { Decide, Update } from './atomic-store.js';

/** What a swap did: wrote, or found the record changed, and what it holds now (undefined: missing). */
export type SwapOutcome = { swapped: true } | { swapped: false; current: string | undefined };

/** The two steps of an optimistic backend (Redis, PostgreSQL), each a single atomic operation on the server. */
export interface CompareAndSet {
  /** The live text at `key`, or undefined. */
  read(key: string): Promise<string | undefined>;
  /** Writes `update` (and its `beside` records) if `key` still holds `expected` (undefined: missing). */
  swap(key: string, expected: string | undefined, update: Update): Promise<SwapOutcome>;
}

/**
 * How many times an update decides again after losing a race before it gives up (a failure, so a
 * StorageUnavailableError for the caller). Each loss means another writer's update landed, so together they always
 * progress; this process's own updates of one member queue before they get here (quota-store.ts), so only other
 * processes compete.
 */
const MAX_ATTEMPTS = 100;

/** Records whose last known text is kept: about 200 bytes each. */
const DEFAULT_KNOWN = 10_000;

/**
 * AtomicStore.update over compare-and-set: decide, swap if the record is unchanged, else decide again on what the
 * failed swap found.
 * The text this process last read or wrote for a key is kept (least recently used first out) and decided on
 * without reading: the swap checks it, so a stale one only costs a retry, and an update is one round trip when
 * this process is the record's only writer. A decision to write nothing is only trusted on a fresh read, since a
 * refusal on a stale text would be wrong.
 */
export class OptimisticUpdater {
  readonly #cas: CompareAndSet;
  readonly #capacity: number;
  readonly #known = new Map<string, string>();

  constructor(cas: CompareAndSet, capacity = DEFAULT_KNOWN) {
    this.#cas = cas;
    this.#capacity = capacity;
  }

  async update(key: string, decide: Decide): Promise<void> {
    let current = this.#recall(key);
    let fresh = current === undefined;
    if (fresh) current = await this.#read(key);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const update = decide(current);
      if (!update) {
        if (fresh) return;
        current = await this.#read(key);
        fresh = true;
        continue;
      }
      const outcome = await this.#cas.swap(key, current, update);
      if (outcome.swapped) {
        this.#remember(key, update.text);
        return;
      }
      // The swap says what the record holds now: decide again on that, without another read.
      current = outcome.current;
      fresh = true;
      this.#remember(key, current);
    }
    throw new Error(`record changed under ${MAX_ATTEMPTS} updates in a row`);
  }

  /** Forgets what is known of `key` (after a write that did not go through {@link update}). */
  forget(key: string): void {
    this.#known.delete(key);
  }

  async #read(key: string): Promise<string | undefined> {
    this.#known.delete(key);
    const text = await this.#cas.read(key);
    this.#remember(key, text);
    return text;
  }

  #recall(key: string): string | undefined {
    const text = this.#known.get(key);
    if (text !== undefined) {
      this.#known.delete(key);
      this.#known.set(key, text);
    }
    return text;
  }

  /** Keeps `text` as the last known text of `key`; a missing record is not kept (it is read next time). */
  #remember(key: string, text: string | undefined): void {
    this.#known.delete(key);
    if (text === undefined) return;
    this.#known.set(key, text);
    if (this.#known.size > this.#capacity) {
      const oldest = this.#known.keys().next();
      if (oldest.done !== true) this.#known.delete(oldest.value);
    }
  }
}
