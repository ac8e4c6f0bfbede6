/**
 * Garbage the memory budget cannot see, collected before it can pile up. V8 frees a Buffer's memory only when it
 * collects the Buffer, and it collects for external memory only once that has grown by 64–128 MB since its last
 * collection. So room the budget gave back (a delivered answer, an edit's references) stayed allocated, and the
 * process held up to twice what the budget counted (issue 28's hostile scenario: 147 MB admitted, 275 MB of
 * ArrayBuffers; docs/benchmarks.md). Two kinds, two remedies:
 *
 * - Socket chunks. Every chunk a socket reads (up to 64 KiB) is an ArrayBuffer of its own; the bot copies it into
 *   the Buffer the budget admitted and drops it. Such chunks die young: a young-generation collection (a scavenge,
 *   about half a millisecond) every CHUNK_GARBAGE_BYTES read keeps them within that.
 * - Room given back. A Buffer that was held for seconds is in the old generation. Before the budget admits more, it
 *   asks {@link Garbage.reclaim}: when the new bytes would take the process's ArrayBuffers past the whole budget and
 *   more than RECLAIM_SLACK_BYTES of those are garbage (beyond what the budget counts), a full collection runs first
 *   (one at a time, as a task of its own: 10–50 ms with the bot's heap), so bytes given back are free before new ones
 *   are allocated. Garbage that fits within the budget is left to V8, which collects it without such a pause.
 *
 * V8 offers collections only to a process started with `--expose-gc` (as `npm start` and the Docker image run the
 * bot); without it both are no-ops and V8 collects as it would.
 */

/** Socket bytes read between two scavenges. */
export const CHUNK_GARBAGE_BYTES = 4 * 1024 * 1024;
/** ArrayBuffers beyond what the budget counts before an admission waits for a full collection. */
export const RECLAIM_SLACK_BYTES = 32 * 1024 * 1024;

/** What {@link Garbage} needs of the runtime (tests pass their own). */
export interface GarbageRuntime {
  /** V8's collector, when the process exposes it. */
  gc: NodeJS.GCFunction | undefined;
  /** Bytes of Buffers and ArrayBuffers allocated now, collected or not. */
  arrayBuffers: () => number;
}

/** See the module comment. */
export class Garbage {
  private readonly runtime: GarbageRuntime;
  private unscavenged = 0;
  private collecting: Promise<void> | undefined;

  constructor(runtime: GarbageRuntime) {
    this.runtime = runtime;
  }

  /** Counts `bytes` of socket chunks read and dropped; every CHUNK_GARBAGE_BYTES, a scavenge. */
  chunksRead(bytes: number): void {
    const { gc } = this.runtime;
    if (gc === undefined) return;
    this.unscavenged += bytes;
    if (this.unscavenged < CHUNK_GARBAGE_BYTES) return;
    this.unscavenged = 0;
    gc({ type: 'minor' });
  }

  /**
   * Settles when `incoming` bytes may be allocated: at once when they fit `ceiling` with what is allocated now, or
   * when no more than RECLAIM_SLACK_BYTES of that is garbage (beyond `counted`, what the budget holds); else after a
   * full collection (shared by every caller while it runs).
   */
  reclaim(counted: number, incoming: number, ceiling: number): Promise<void> {
    const { gc } = this.runtime;
    if (gc === undefined) return Promise.resolve();
    if (this.collecting) return this.collecting;
    const allocated = this.runtime.arrayBuffers();
    if (allocated + incoming <= ceiling || allocated - counted <= RECLAIM_SLACK_BYTES) return Promise.resolve();
    this.collecting = gc({ type: 'major', execution: 'async' }).finally(() => {
      this.collecting = undefined;
    });
    return this.collecting;
  }
}

/** The process's own: V8's collector if exposed, and Node's count of ArrayBuffers. */
export const processGarbage = new Garbage({ gc: globalThis.gc, arrayBuffers: () => process.memoryUsage().arrayBuffers });
