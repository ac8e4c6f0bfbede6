/**
 * Cluster job slots in memory: a global count and a count per member, with waiters served in arrival order. Other
 * processes are simulated by {@link FakeJobSlots.takeElsewhere}; failures and late grants are scripted.
 */
import type { JobSlots, SlotHold, SlotRequest } from '../../src/ports/job-slots.js';
import type { Lane } from '../../src/core/server-settings.js';

interface Waiter {
  memberId: string;
  signal: AbortSignal;
  grant(hold: SlotHold): void;
  fail(error: unknown): void;
}

export class FakeJobSlots implements JobSlots {
  readonly #global: number;
  readonly #perMember: number;
  readonly #members = new Map<string, number>();
  readonly #waiters: Waiter[] = [];
  #failure: { error: unknown } | undefined;
  /** Slots held now, across "processes". */
  held = 0;
  /** Holds released (by anyone). */
  releases = 0;
  /** Calls of onWait. */
  waits = 0;
  /** The lane of each acquisition, in order (the fake serves waiters in arrival order whatever their lane). */
  readonly lanes: (Lane | undefined)[] = [];
  /** When true, an abort does not withdraw a waiter: the grant can race the cancellation. */
  ignoreAbort = false;

  constructor(limits: { global: number; perMember: number }) {
    this.#global = limits.global;
    this.#perMember = limits.perMember;
  }

  /** Waiters still waiting. */
  get waiting(): number {
    return this.#waiters.length;
  }

  /** Makes the next acquire reject with `error`. */
  failNext(error: unknown): void {
    this.#failure = { error };
  }

  /** A slot held by another process (it must be free); release it with the hold returned. */
  takeElsewhere(memberId: string): SlotHold {
    if (!this.#fits(memberId)) throw new Error('no free slot to take');
    return this.#take(memberId);
  }

  acquire(memberId: string, options: SlotRequest): Promise<SlotHold> {
    this.lanes.push(options.lane);
    if (this.#failure) {
      const { error } = this.#failure;
      this.#failure = undefined;
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    if (options.signal.aborted) return Promise.reject(options.signal.reason instanceof Error ? options.signal.reason : new Error('aborted'));
    if (this.#fits(memberId)) return Promise.resolve(this.#take(memberId));
    this.waits += 1;
    options.onWait?.();
    return new Promise<SlotHold>((grant, fail) => {
      const waiter: Waiter = { memberId, signal: options.signal, grant, fail };
      this.#waiters.push(waiter);
      if (this.ignoreAbort) return;
      options.signal.addEventListener('abort', () => {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        fail(options.signal.reason instanceof Error ? options.signal.reason : new Error('aborted'));
      });
    });
  }

  #fits(memberId: string): boolean {
    return this.held < this.#global && (this.#members.get(memberId) ?? 0) < this.#perMember;
  }

  #take(memberId: string): SlotHold {
    this.held += 1;
    this.#members.set(memberId, (this.#members.get(memberId) ?? 0) + 1);
    let released = false;
    return {
      release: () => {
        if (released) return Promise.resolve();
        released = true;
        this.held -= 1;
        this.releases += 1;
        this.#members.set(memberId, (this.#members.get(memberId) ?? 1) - 1);
        this.#wake();
        return Promise.resolve();
      },
    };
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) {
      if (!this.#fits(waiter.memberId)) continue;
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.grant(this.#take(waiter.memberId));
    }
  }
}
