/**
 * A byte budget per event-loop turn, shared by every response body being read: `for await` over a body does not
 * give the event loop back between buffered chunks, so many answers arriving together stalled it (figures in
 * docs/benchmarks.md). Readers take their chunks' bytes from this budget and wait for the next turn
 * (setImmediate) once it is spent. Bytes, not time, so the behaviour is deterministic.
 */

/**
 * Body bytes all readers together may handle in one turn: about 1.5 ms of scanning and decoding clean base64 on
 * the benchmark machine. With 100 four-image answers landing together, 3 MiB gave an event-loop delay p99 of
 * about 30 ms and 1 MiB about 24 ms, with the same end-to-end times; 256 KiB was no better under load and slowed a
 * single answer down (its socket keeps being paused).
 */
export const TURN_BYTES = 1024 * 1024;

let spent = 0;
let resetQueued = false;

const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** Resolves once `bytes` fit in the current turn's budget, waiting for later turns while it is spent. */
export async function spendTurnBytes(bytes: number): Promise<void> {
  // Re-checked after every wait: all waiters resume in the same turn, and only the first ones fit.
  while (spent >= TURN_BYTES) await nextTurn();
  if (!resetQueued) {
    resetQueued = true;
    // Queued before any waiter of this turn, so in the next check phase it runs first and frees the budget.
    setImmediate(() => {
      spent = 0;
      resetQueued = false;
    });
  }
  spent += bytes;
}
