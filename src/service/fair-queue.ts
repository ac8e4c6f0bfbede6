/**
 * Fair scheduling of gateway calls across members. p-queue and p-limit offer one global FIFO (with priorities),
 * not per-member caps or round-robin between members, so this is a small hand-rolled scheduler.
 */
import { callHook, compareMembers, createJob, positiveInt, simulateStartOrder, type Job, type Member } from './fair-queue-order.js';
import { afterStart, nextLane, type LaneTurns } from '../core/lane-turns.js';
import { QueueCancelledError, QueueClosedError, type FairQueueOptions, type QueueRefusal, type QueueTicket, type SubmitHooks } from './fair-queue-types.js';
import type { JobSlots } from '../ports/job-slots.js';
import { PRIORITY_LANE_WEIGHT } from '../core/member-perks.js';
import type { Lane } from '../core/server-settings.js';

export { QueueCancelledError, QueueClosedError, type FairQueueOptions, type QueueRefusal, type QueueTicket, type SubmitHooks };

/**
 * A job queue with a global concurrency cap, fair across members.
 *
 * Policy: when a slot frees up, the next job comes from the member served least recently among those with jobs
 * waiting and below their running cap; a member who was idle counts as never served, and ties go to the oldest
 * job. One member's ten jobs therefore interleave with everyone else's, and a member at their running cap is
 * skipped without holding back others.
 *
 * Lanes (issue 32): each member waits in the lane of their latest submission, and members take turns within their
 * lane as above. While both lanes have a job that could start, the priority lane starts `priorityWeight` jobs (3 by
 * default) for each one of the normal lane: the priority lane goes first, and the normal lane still gets at least
 * one start in every `priorityWeight + 1` (a quarter by default), however many priority jobs wait.
 *
 * With cluster slots (`slots`), a picked job first acquires one (global and per member, across every process on the
 * store): meanwhile it stays first in its member's line, counts against this queue's caps as a running job does, and
 * reports its position once the cluster is found full. Without them a picked job starts at once.
 *
 * Positions simulate that policy over the waiting jobs assuming running caps do not get in the way (as when
 * slots free up one by one); a member at their cap can make the real order differ, so positions are an estimate.
 */
export class FairQueue {
  private readonly concurrency: number;
  private readonly perMemberRunning: number;
  private readonly perMemberQueued: number;
  private readonly slots: JobSlots | undefined;
  private readonly members = new Map<string, Member>();
  private readonly runningJobs = new Set<Job>();
  /** Picked jobs acquiring their cluster slot. */
  private readonly startingJobs = new Set<Job>();
  private readonly idleWaiters: (() => void)[] = [];
  private turns = 0;
  private laneTurns: LaneTurns;
  private seq = 0;
  private publishVersion = 0;
  private closed = false;

  constructor(options: FairQueueOptions = {}) {
    this.concurrency = positiveInt(options.concurrency ?? 4, 'concurrency');
    this.perMemberRunning = positiveInt(options.perMemberRunning ?? 2, 'perMemberRunning');
    this.perMemberQueued = positiveInt(options.perMemberQueued ?? 10, 'perMemberQueued');
    this.slots = options.slots;
    this.laneTurns = { weight: positiveInt(options.priorityWeight ?? PRIORITY_LANE_WEIGHT, 'priorityWeight'), run: 0 };
  }

  /** Jobs running now. */
  get running(): number {
    return this.runningJobs.size;
  }

  /** Jobs waiting now, across members (those acquiring a cluster slot included). */
  get waiting(): number {
    return [...this.members.values()].reduce((count, member) => count + member.waiting.length, 0);
  }

  /**
   * Queues `run` for `memberId` in `lane` (the member's waiting jobs move to it), starting it at once when the caps
   * allow. Refuses synchronously when the member already has `perMemberQueued` jobs waiting, or the queue is closed.
   */
  submit<T>(memberId: string, run: (signal: AbortSignal) => Promise<T>, hooks: SubmitHooks = {}, lane: Lane = 'normal'): QueueTicket<T> | QueueRefusal {
    if (this.closed) return { accepted: false, reason: 'closed' };
    const member = this.members.get(memberId) ?? { id: memberId, lane, running: 0, starting: 0, waiting: [], lastTurn: 0 };
    if (member.waiting.length >= this.perMemberQueued) return { accepted: false, reason: 'member_queue_full' };
    member.lane = lane;
    this.members.set(memberId, member);

    const { job, result } = createJob(++this.seq, member, run, hooks);
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
    for (const job of [...this.members.values()].flatMap((member) => member.waiting)) {
      this.unqueue(job);
      this.drop(job, new QueueClosedError('The queue was closed'));
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
    if (job.state !== 'waiting' && job.state !== 'starting') return;
    this.unqueue(job);
    // Aborts a starting job's acquisition too; what it acquires after all is released (acquireSlot).
    this.drop(job, new QueueCancelledError('The job was cancelled'));
    this.forgetIdleMembers();
    this.pump();
  }

  /** Takes a waiting or starting job out of its member's line. */
  private unqueue(job: Job): void {
    job.member.waiting.splice(job.member.waiting.indexOf(job), 1);
    if (job.state !== 'starting') return;
    job.member.starting -= 1;
    this.startingJobs.delete(job);
  }

  private drop(job: Job, reason: unknown): void {
    job.state = 'done';
    job.controller.abort(reason);
    job.reject(reason);
  }

  /** Starts jobs while slots are free, then reports positions. Callbacks run only after the state is consistent. */
  private pump(): void {
    const picked: Job[] = [];
    for (let job = this.pickNext(); job !== undefined; job = this.pickNext()) {
      job.member.lastTurn = ++this.turns;
      if (this.slots === undefined) {
        this.markRunning(job);
      } else {
        job.state = 'starting';
        job.member.starting += 1;
        this.startingJobs.add(job);
      }
      picked.push(job);
    }
    this.publishPositions();
    for (const job of picked) {
      // A hook run meanwhile may have cancelled a starting job.
      if (job.state === 'running') this.launch(job);
      else if (job.state === 'starting' && this.slots !== undefined) this.acquireSlot(job, this.slots);
    }
  }

  /** The next job to start (the lanes' turns, then the member served least recently in that lane), counted as started. */
  private pickNext(): Job | undefined {
    if (this.runningJobs.size + this.startingJobs.size >= this.concurrency) return undefined;
    const best: Record<Lane, Member | undefined> = { priority: undefined, normal: undefined };
    for (const member of this.members.values()) {
      if (member.waiting.length <= member.starting || member.running + member.starting >= this.perMemberRunning) continue;
      const current = best[member.lane];
      if (current === undefined || compareMembers(member, current) < 0) best[member.lane] = member;
    }
    const lane = nextLane(this.laneTurns, best.priority !== undefined, best.normal !== undefined);
    const member = lane && best[lane];
    if (lane === undefined || member === undefined) return undefined;
    this.laneTurns = afterStart(this.laneTurns, lane, best.normal !== undefined);
    return member.waiting[member.starting];
  }

  private markRunning(job: Job): void {
    this.unqueue(job);
    job.member.running += 1;
    job.state = 'running';
    this.runningJobs.add(job);
  }

  /** Acquires the cluster slot of a starting job, then launches it; a failure of the store fails the job. */
  private acquireSlot(job: Job, slots: JobSlots): void {
    const onWait = () => {
      job.blocked = true;
      this.publishPositions();
    };
    // Not awaited: both handlers settle everything themselves and never throw (hooks run through callHook).
    void slots.acquire(job.member.id, { signal: job.controller.signal, onWait, lane: job.member.lane }).then(
      (hold) => {
        if (job.state !== 'starting') {
          // Cancelled or closed while the slot was being granted: hand it back.
          void hold.release();
          return;
        }
        job.hold = hold;
        this.markRunning(job);
        this.publishPositions();
        this.launch(job);
      },
      (error: unknown) => {
        if (job.state !== 'starting') return;
        this.unqueue(job);
        this.drop(job, error);
        this.forgetIdleMembers();
        this.pump();
      },
    );
  }

  private launch(job: Job): void {
    callHook(() => job.hooks.onStart?.());
    // Not awaited: execute() catches the job's failure and resolves to its settlement, so this chain never rejects;
    // the ticket's result carries the outcome, and close() waits for running jobs through idleWaiters.
    void job.execute(job.controller.signal).then(async (settle) => {
      // Freed before the next job is picked, so that one finds the cluster slot free.
      await job.hold?.release();
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
    const order = simulateStartOrder([...this.members.values()], this.laneTurns);
    for (const [index, job] of order.entries()) {
      // A hook that re-entered the queue has already published fresher positions.
      if (version !== this.publishVersion) return;
      // A starting job says nothing until the cluster turned out full: most get their slot at once.
      if (job.reported === index + 1 || (job.state === 'starting' && !job.blocked)) continue;
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
