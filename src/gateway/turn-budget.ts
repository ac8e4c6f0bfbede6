/**
 * A byte budget per event-loop turn, shared by every response body one gateway client reads: `for await` over a
 * body does not give the event loop back between buffered chunks, so many answers arriving together stalled it
 * (figures in docs/benchmarks.md). Readers take their chunks' bytes from the budget and wait for the next turn
 * (setImmediate) once it is spent. Bytes, not time, so the behaviour is deterministic.
 */

/**
 * Body bytes all readers together may handle in one turn: about 1.5 ms of scanning and decoding clean base64 on
 * the benchmark machine (why 1 MiB: docs/benchmarks.md, "Figures behind the design").
 */
export const TURN_BYTES = 1024 * 1024;

const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** See the module comment; one instance per gateway client (GatewayHttp owns it). */
export class TurnBudget {
  private readonly bytesPerTurn: number;
  private spent = 0;
  private resetQueued = false;

  constructor(bytesPerTurn = TURN_BYTES) {
    if (!(bytesPerTurn > 0)) throw new RangeError('bytesPerTurn must be positive');
    this.bytesPerTurn = bytesPerTurn;
  }

  /** Resolves once `bytes` fit in the current turn's budget, waiting for later turns while it is spent. */
  async spend(bytes: number): Promise<void> {
    // Re-checked after every wait: all waiters resume in the same turn, and only the first ones fit.
    while (this.spent >= this.bytesPerTurn) await nextTurn();
    if (!this.resetQueued) {
      this.resetQueued = true;
      // Queued before any waiter of this turn, so in the next check phase it runs first and frees the budget.
      setImmediate(() => {
        this.spent = 0;
        this.resetQueued = false;
      });
    }
    this.spent += bytes;
  }
}
