/**
 * Fair scheduling of gateway calls across members. p-queue and p-limit offer one global FIFO (with priorities),
 * not per-member caps or round-robin between members, so this is a small hand-rolled scheduler.
 */
import { randomUUID } from 'node:crypto';

import { QueueCancelledError, QueueClosedError, type FairQueueOptions, type QueueRefusal, type QueueTicket, type SubmitHooks } from './fair-queue-types.js';

export { QueueCancelledError, QueueClosedError, type FairQueueOptions, type QueueRefusal, type QueueTicket, type SubmitHooks };

interface Member {
  running: number;
  readonly waiting: Job[];
  /** Turn number of this member's latest start; 0 for a member never served since it became active. */
  lastTurn: number;
}

interface Job {
  readonly id: string;
  readonly seq: number;
  readonly member: Member;
  readonly hooks: SubmitHooks;
  readonly controller: AbortController;
  state: 'waiting' | 'running' | 'done';
  reported: number;
  /** Runs the job; resolves to a function that settles the ticket's result (called after the slot is freed). */
  execute(signal: AbortSignal): Promise<() => void>;
  reject(error: unknown): void;
}

/**
 * A job queue with a global concurrency cap, fair across members.
 *
 * Policy: when a slot frees up, the next job comes from the member served least recently among those with jobs
 * waiting and below their running cap; a member who was idle counts as never served, and ties go to the oldest
 * job. One member's ten jobs therefore interleave with everyone else's, and a member at their running cap is
 * skipped without holding back others.
 *
 * Positions simulate that policy over the waiting jobs assuming running caps do not get in the way (as when
 * slots free up one by one); a member at their cap can make the real order differ, so positions are an estimate.
 */
export class FairQueue {
  private readonly concurrency: number;
  private readonly perMemberRunning: number;
  private readonly perMemberQueued: number;
  private readonly members = new Map<string, Member>();
  private readonly runningJobs = new Set<Job>();
  private readonly idleWaiters: (() => void)[] = [];
  private turns = 0;
  private seq = 0;
  private publishVersion = 0;
  private closed = false;

  constructor(options: FairQueueOptions = {}) {
    this.concurrency = positiveInt(options.concurrency ?? 4, 'concurrency');
    this.perMemberRunning = positiveInt(options.perMemberRunning ?? 2, 'perMemberRunning');
    this.perMemberQueued = positiveInt(options.perMemberQueued ?? 10, 'perMemberQueued');
  }

  /** Jobs running now. */
  get running(): number {
    return this.runningJobs.size;
  }

  /** Jobs waiting now, across members. */
  get waiting(): number {
    return [...this.members.values()].reduce((count, member) => count + member.waiting.length, 0);
  }

  /**
   * Queues `run` for `memberId`, starting it at once when the caps allow. Refuses synchronously when the member
   * already has `perMemberQueued` jobs waiting, or the queue is closed.
   */
  submit<T>(memberId: string, run: (signal: AbortSignal) => Promise<T>, hooks: SubmitHooks = {}): QueueTicket<T> | QueueRefusal {
    if (this.closed) return { accepted: false, reason: 'closed' };
    const member = this.members.get(memberId) ?? { running: 0, waiting: [], lastTurn: 0 };
    if (member.waiting.length >= this.perMemberQueued) return { accepted: false, reason: 'member_queue_full' };
    this.members.set(memberId, member);

    let resolve!: (value: T) => void;
    let reject!: (error: unknown) => void;
    const result = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const job: Job = {
      id: randomUUID(),
      seq: ++this.seq,
      member,
      hooks,
      controller: new AbortController(),
      state: 'waiting',
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
    member.waiting.push(job);
    this.pump();
    return { accepted: true, id: job.id, position: job.reported, result, cancel: () => this.cancel(job) };
  }

  /**
   * Stops accepting jobs and rejects every waiting one with QueueClosedError. Resolves when running jobs have
   * settled, or after `graceMs` (when given), aborting their signals.
   */
  async close(graceMs?: number): Promise<void> {
    this.closed = true;
    for (const member of this.members.values()) {
      for (const job of member.waiting.splice(0)) this.drop(job, new QueueClosedError('The queue was closed'));
    }
    this.forgetIdleMembers();
    if (this.runningJobs.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.idleWaiters.push(resolve);
      if (graceMs === undefined) return;
      timer = setTimeout(() => {
        for (const job of this.runningJobs) job.controller.abort(new QueueClosedError('The queue was closed'));
        resolve();
      }, graceMs);
    });
    clearTimeout(timer);
  }

  private cancel(job: Job): void {
    if (job.state === 'running') job.controller.abort(new QueueCancelledError('The job was cancelled'));
    if (job.state !== 'waiting') return;
    job.member.waiting.splice(job.member.waiting.indexOf(job), 1);
    this.drop(job, new QueueCancelledError('The job was cancelled'));
    this.forgetIdleMembers();
    this.publishPositions();
  }

  private drop(job: Job, reason: Error): void {
    job.state = 'done';
    job.controller.abort(reason);
    job.reject(reason);
  }

  /** Starts jobs while slots are free, then reports positions. Callbacks run only after the state is consistent. */
  private pump(): void {
    const started: Job[] = [];
    for (let job = this.pickNext(); job !== undefined; job = this.pickNext()) {
      job.member.waiting.shift();
      job.member.running += 1;
      job.member.lastTurn = ++this.turns;
      job.state = 'running';
      this.runningJobs.add(job);
      started.push(job);
    }
    this.publishPositions();
    for (const job of started) this.launch(job);
  }

  private pickNext(): Job | undefined {
    if (this.runningJobs.size >= this.concurrency) return undefined;
    let best: Member | undefined;
    for (const member of this.members.values()) {
      if (member.waiting.length === 0 || member.running >= this.perMemberRunning) continue;
      if (best === undefined || compareMembers(member, best) < 0) best = member;
    }
    return best?.waiting[0];
  }

  private launch(job: Job): void {
    callHook(() => job.hooks.onStart?.());
    // Not awaited: execute() catches the job's failure and resolves to its settlement, so this chain never rejects;
    // the ticket's result carries the outcome, and close() waits for running jobs through idleWaiters.
    void job.execute(job.controller.signal).then((settle) => {
      job.state = 'done';
      job.member.running -= 1;
      this.runningJobs.delete(job);
      this.forgetIdleMembers();
      this.pump();
      settle();
      if (this.runningJobs.size === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    });
  }

  private publishPositions(): void {
    const version = ++this.publishVersion;
    const order = simulateStartOrder([...this.members.values()]);
    for (const [index, job] of order.entries()) {
      // A hook that re-entered the queue has already published fresher positions.
      if (version !== this.publishVersion) return;
      if (job.reported === index + 1) continue;
      job.reported = index + 1;
      callHook(() => job.hooks.onPosition?.(index + 1));
    }
  }

  /** Idle members are forgotten, which keeps the map small and lets them rejoin as never served. */
  private forgetIdleMembers(): void {
    for (const [id, member] of this.members) {
      if (member.running === 0 && member.waiting.length === 0) this.members.delete(id);
    }
  }
}

/**
 * The order waiting jobs would start in under the round-robin policy, ignoring running caps. Every start makes
 * its member the most recently served, so the policy settles into rounds in a fixed member order.
 */
function simulateStartOrder(members: readonly Member[]): Job[] {
  const queues = members
    .filter((m) => m.waiting.length > 0)
    .sort(compareMembers)
    .map((m) => m.waiting);
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
function compareMembers(a: Member, b: Member): number {
  return a.lastTurn - b.lastTurn || (a.waiting[0]?.seq ?? 0) - (b.waiting[0]?.seq ?? 0);
}

/** Hooks only report progress; one that throws must not break scheduling for everyone else. */
function callHook(hook: () => void): void {
  try {
    hook();
  } catch {
    // Deliberately ignored: see above.
  }
}

function positiveInt(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`FairQueue ${name} must be a positive integer`);
  return value;
}
