/**
 * The fair queue's bookkeeping and its ordering policy: members, jobs, the lanes' turns and the order waiting jobs
 * start in.
 */
import { randomUUID } from 'node:crypto';
import type { SubmitHooks } from './fair-queue-types.js';
import type { SlotHold } from '../ports/job-slots.js';
import type { Lane } from '../core/server-settings.js';
import { afterStart, nextLane, type LaneTurns } from '../core/lane-turns.js';

/** One member's jobs in the queue. */
export interface Member {
  readonly id: string;
  /** The lane of the member's latest submission: all their waiting jobs wait in it. */
  lane: Lane;
  running: number;
  /** Jobs picked to run, waiting for a cluster slot: always the first `starting` of `waiting`. */
  starting: number;
  readonly waiting: Job[];
  /** Turn number of this member's latest start; 0 for a member never served since it became active. */
  lastTurn: number;
}

/** One submitted job. */
export interface Job {
  readonly id: string;
  readonly seq: number;
  readonly member: Member;
  readonly hooks: SubmitHooks;
  readonly controller: AbortController;
  /** `starting`: picked to run, acquiring its cluster slot (only with cluster slots); it still counts as waiting. */
  state: 'waiting' | 'starting' | 'running' | 'done';
  /** Whether its cluster slot was not free at the first try: only then does a starting job report its position. */
  blocked: boolean;
  hold: SlotHold | undefined;
  reported: number;
  /** Runs the job; resolves to a function that settles the ticket's result (called after the slot is freed). */
  execute(signal: AbortSignal): Promise<() => void>;
  reject(error: unknown): void;
}

/** A new waiting job of `member` running `run`, and the result its ticket hands out. */
export function createJob<T>(seq: number, member: Member, run: (signal: AbortSignal) => Promise<T>, hooks: SubmitHooks): { job: Job; result: Promise<T> } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const result = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const job: Job = {
    id: randomUUID(),
    seq,
    member,
    hooks,
    controller: new AbortController(),
    state: 'waiting',
    blocked: false,
    hold: undefined,
    reported: 0,
    reject,
    async execute(signal) {
      // The controller is the queue's own, so an aborted signal always means cancel() or close().
      try {
        const value = await run(signal);
        return signal.aborted ? () => reject(signal.reason) : () => resolve(value);
      } catch (error) {
        return () => reject(signal.aborted ? signal.reason : error);
      }
    },
  };
  return { job, result };
}

/**
 * The order waiting jobs would start in under the lanes and the round-robin policy, ignoring running caps: jobs
 * already picked (starting) first, then the two lanes merged by {@link nextLane}, each lane's members taking turns.
 * Every start makes its member the most recently served, so each lane settles into rounds in a fixed member order.
 */
export function simulateStartOrder(members: readonly Member[], turns: LaneTurns): Job[] {
  const order: Job[] = members.flatMap((m) => m.waiting.slice(0, m.starting));
  const priority = roundRobin(members.filter((m) => m.lane === 'priority'));
  const normal = roundRobin(members.filter((m) => m.lane === 'normal'));
  let state = turns;
  for (let p = 0, n = 0; ;) {
    const lane = nextLane(state, p < priority.length, n < normal.length);
    if (lane === undefined) return order;
    state = afterStart(state, lane, n < normal.length);
    const job = lane === 'priority' ? priority[p++] : normal[n++];
    if (job !== undefined) order.push(job);
  }
}

/** The waiting (not yet picked) jobs of `members` in round-robin order. */
function roundRobin(members: readonly Member[]): Job[] {
  const queues = members
    .filter((m) => m.waiting.length > m.starting)
    .sort(compareMembers)
    .map((m) => m.waiting.slice(m.starting));
  const order: Job[] = [];
  for (let round = 0; queues.some((jobs) => jobs.length > round); round++) {
    for (const jobs of queues) {
      const job = jobs[round];
      if (job !== undefined) order.push(job);
    }
  }
  return order;
}

/** Least recently served first; ties (members never served) go to the oldest waiting job. */
export function compareMembers(a: Member, b: Member): number {
  return a.lastTurn - b.lastTurn || (a.waiting[0]?.seq ?? 0) - (b.waiting[0]?.seq ?? 0);
}

/** Hooks only report progress; one that throws must not break scheduling for everyone else. */
export function callHook(hook: () => void): void {
  try {
    hook();
  } catch {
    // Deliberately ignored: see above.
  }
}

/** `value` when it is a positive integer; a RangeError naming the option otherwise. */
export function positiveInt(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`FairQueue ${name} must be a positive integer`);
  return value;
}
