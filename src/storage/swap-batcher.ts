/** Options of {@link SwapBatcher}. */
export interface SwapBatcherOptions<Request, Result> {
  /**
   * Sends one batch as one operation and answers one result per request, in the same order. A rejection fails
   * that batch's requests only, each with the same error.
   */
  send: (requests: readonly Request[]) => Promise<readonly Result[]>;
  /**
   * Every key a request writes. No two requests of one batch share a key, and a key is in one batch at a time. A
   * request that writes nothing (a read) has none, and is never held back.
   */
  keysOf: (request: Request) => readonly string[];
  /** Requests in one batch at most. @default 64 */
  maxBatch?: number | undefined;
  /** Batches sent and not yet answered at most; the requests that come meanwhile wait and gather. @default 2 */
  maxInFlight?: number | undefined;
}

interface Waiting<Request, Result> {
  request: Request;
  keys: readonly string[];
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/**
 * Gathers the compare-and-set requests (swaps) that wait in this process and sends them as batches, so a backend
 * pays one statement for many. A request is sent with the next batch that has room, unless one of its keys is in
 * a batch still in flight or taken by an earlier request of the batch being formed: then it waits for the next
 * batch, so the requests of one key reach the backend one at a time, in the order they came. Requests made in one
 * run of synchronous code go together: a batch leaves in a microtask after the first of them.
 */
export class SwapBatcher<Request, Result> {
  readonly #send: (requests: readonly Request[]) => Promise<readonly Result[]>;
  readonly #keysOf: (request: Request) => readonly string[];
  readonly #maxBatch: number;
  readonly #maxInFlight: number;
  #waiting: Waiting<Request, Result>[] = [];
  /** The keys of the batches in flight. */
  readonly #busy = new Set<string>();
  #inFlight = 0;
  #scheduled = false;

  constructor(options: SwapBatcherOptions<Request, Result>) {
    this.#send = options.send;
    this.#keysOf = options.keysOf;
    this.#maxBatch = options.maxBatch ?? 64;
    this.#maxInFlight = options.maxInFlight ?? 2;
    if (!(this.#maxBatch >= 1 && this.#maxInFlight >= 1)) throw new RangeError('maxBatch and maxInFlight must be at least 1');
  }

  /** Sends `request` with a batch and answers its result, or the batch's error. */
  submit(request: Request): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.#waiting.push({ request, keys: this.#keysOf(request), resolve, reject });
      if (this.#scheduled) return;
      this.#scheduled = true;
      queueMicrotask(() => {
        this.#scheduled = false;
        this.#pump();
      });
    });
  }

  #pump(): void {
    while (this.#inFlight < this.#maxInFlight) {
      const batch = this.#take();
      if (batch.length === 0) return;
      void this.#dispatch(batch);
    }
  }

  /** Takes the next batch out of the waiting requests, in their order. */
  #take(): Waiting<Request, Result>[] {
    const batch: Waiting<Request, Result>[] = [];
    const left: Waiting<Request, Result>[] = [];
    // Keys in flight, in this batch, or of a request left waiting (so no later request of that key overtakes it).
    const blocked = new Set(this.#busy);
    for (const waiting of this.#waiting) {
      if (batch.length < this.#maxBatch && !waiting.keys.some((key) => blocked.has(key))) batch.push(waiting);
      else left.push(waiting);
      for (const key of waiting.keys) blocked.add(key);
    }
    this.#waiting = left;
    return batch;
  }

  async #dispatch(batch: readonly Waiting<Request, Result>[]): Promise<void> {
    this.#inFlight += 1;
    for (const waiting of batch) for (const key of waiting.keys) this.#busy.add(key);
    try {
      const results = await this.#send(batch.map((waiting) => waiting.request));
      if (results.length !== batch.length) throw new Error(`a batch of ${batch.length} swaps was answered with ${results.length} results`);
      for (const [i, result] of results.entries()) batch[i]?.resolve(result);
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      for (const waiting of batch) for (const key of waiting.keys) this.#busy.delete(key);
      this.#inFlight -= 1;
      this.#pump();
    }
  }
}
