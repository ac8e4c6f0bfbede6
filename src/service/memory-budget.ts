/**
 * One byte budget for the images this process holds (MEMORY_BUDGET_BYTES): the reference images members attach to
 * edits, gateway answers while they are read and decoded, and the images a gateway answers with links. Work beyond
 * it waits: a job's downloads before they start (holding its place in the queue), an answer unread in its socket.
 * So memory has a ceiling however many members submit at once and whatever the gateway answers.
 *
 * Why it cannot deadlock: a job takes its references before the gateway call and keeps them until the call has
 * settled, then takes room for the answer. If references could fill the whole budget, every running job could hold
 * references while waiting for answer room. So references take from a region that leaves one answer's room free
 * (answerBytes, the gateway's response cap): while no answer holds room, any answer fits; an admitted answer needs
 * nothing more to finish (a job's later admission, for linked images, first gives back its earlier one); and a job
 * whose references alone pass the region is refused before anything is reserved or fetched.
 */
import type { AnswerMemory } from './ports.js';
import { Semaphore } from './semaphore.js';

const MIB = 1024 * 1024;
/** Sized for a 512 MB container: about 150 MB for Node, discord.js and sharp, and room for the idle answer Buffers. */
export const DEFAULT_MEMORY_BUDGET_BYTES = 192 * MIB;
/** GATEWAY_MAX_RESPONSE_BYTES' default. */
export const DEFAULT_ANSWER_BYTES = 64 * MIB;

/** Options of {@link MemoryBudget}. */
export interface MemoryBudgetOptions {
  /** Every image byte held at once. @default 192 MiB */
  totalBytes?: number | undefined;
  /** The most one answer may take (the gateway's response cap); less than totalBytes. @default 64 MiB */
  answerBytes?: number | undefined;
}

/** Gives taken bytes back; safe to call more than once. */
export type Release = () => void;

/** The process's budget; see the module comment. */
export class MemoryBudget {
  readonly totalBytes: number;
  readonly answerBytes: number;
  /** The most all jobs' references take together, and so the most one job's may: totalBytes − answerBytes. */
  readonly referenceBytes: number;
  private readonly all: Semaphore;
  private readonly references: Semaphore;

  constructor(options: MemoryBudgetOptions = {}) {
    this.totalBytes = options.totalBytes ?? DEFAULT_MEMORY_BUDGET_BYTES;
    this.answerBytes = options.answerBytes ?? DEFAULT_ANSWER_BYTES;
    if (this.answerBytes >= this.totalBytes) throw new RangeError('the memory budget must be larger than one answer');
    this.referenceBytes = this.totalBytes - this.answerBytes;
    this.all = new Semaphore(this.totalBytes);
    this.references = new Semaphore(this.referenceBytes);
  }

  /** Bytes taken now (what the budget counts as held). */
  get inUse(): number {
    return this.all.inUse;
  }

  /** Takes (waiting while they do not fit) room for one job's reference images; more than referenceBytes is a RangeError. */
  async takeReferences(bytes: number): Promise<Release> {
    if (bytes > this.referenceBytes) throw new RangeError(`references of ${bytes} bytes pass the budget's ${this.referenceBytes}`);
    const region = await this.references.acquire(bytes);
    const taken = await this.all.acquire(bytes);
    return () => {
      taken();
      region();
    };
  }

  /** Takes (waiting while it does not fit) room for an answer; at most answerBytes. */
  takeAnswer(bytes: number): Promise<Release> {
    return this.all.acquire(Math.min(bytes, this.answerBytes));
  }

  /** One job's account; `unknownAnswerBytes` is what an answer of unknown length may take (answer-bound.ts). */
  forJob(unknownAnswerBytes: number): JobMemory {
    return new JobMemory(this, unknownAnswerBytes);
  }
}

/** One job's share of the budget: its references, then its answer (the gateway call's AnswerMemory). */
export class JobMemory implements AnswerMemory {
  private readonly budget: MemoryBudget;
  private readonly unknownAnswerBytes: number;
  private referencesTaken: Release | undefined;
  private answerTaken: Release | undefined;
  private over = false;

  constructor(budget: MemoryBudget, unknownAnswerBytes: number) {
    this.budget = budget;
    this.unknownAnswerBytes = Math.min(unknownAnswerBytes, budget.answerBytes);
  }

  /** Takes room for the job's references before they are downloaded (once per job; a second call adds nothing). */
  async takeReferences(bytes: number): Promise<void> {
    if (this.referencesTaken) return;
    const taken = await this.budget.takeReferences(bytes);
    if (this.over) taken();
    else this.referencesTaken = taken;
  }

  /** Gives the references' room back once nothing reads them any more (the gateway call has settled). */
  releaseReferences(): void {
    this.referencesTaken?.();
    this.referencesTaken = undefined;
  }

  async admit(bytes: number | undefined): Promise<number> {
    // Given back before waiting, so an answer never waits while holding room (see the module comment).
    this.answerTaken?.();
    this.answerTaken = undefined;
    const room = Math.min(bytes ?? this.unknownAnswerBytes, this.budget.answerBytes);
    const taken = await this.budget.takeAnswer(room);
    // A job that ended while its answer waited (cancelled) keeps nothing.
    if (this.over) taken();
    else this.answerTaken = taken;
    return room;
  }

  /** Gives everything back (the job is over: delivered or failed). */
  release(): void {
    this.over = true;
    this.releaseReferences();
    this.answerTaken?.();
    this.answerTaken = undefined;
  }
}
