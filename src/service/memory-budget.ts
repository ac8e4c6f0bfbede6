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
 *
 * Answers take from a region of one answer's room (answerBytes): the answers read and decoded at once weigh no more
 * together than the largest one may alone. An answer's bytes are held two or three times over while it is read,
 * parsed, decoded and posted (its text, its images, the upload), so a budget that let answers fill all of it would
 * let the process hold several times the budget (issue 28's bisect: 100 four-image answers in flight peaked at
 * 440 MB against 246 MB when answers had a small region of their own; docs/benchmarks.md). No deadlock: an answer
 * waits only in its own region and holds nothing while it waits.
 *
 * Describes (describe-service.ts) take from a small region of their own (describeBytes), never the references':
 * members describing large images cannot keep an edit from its references. Their room counts in the total too, so the
 * budget still tells the truth; an answer may wait for a describe's room, which nothing else holds up (a describe
 * ends within its time limit, whatever the answers and references do). Every wait here can be abandoned (a signal).
 */
import { Semaphore, type PartialRelease } from './semaphore.js';

const MIB = 1024 * 1024;
/** Sized for a 512 MB container: about 150 MB for Node, discord.js and sharp, and room for the idle answer Buffers. */
export const DEFAULT_MEMORY_BUDGET_BYTES = 192 * MIB;
/** GATEWAY_MAX_RESPONSE_BYTES' default. */
export const DEFAULT_ANSWER_BYTES = 64 * MIB;
/** DESCRIBE_MEMORY_BYTES' default. */
export const DEFAULT_DESCRIBE_BYTES = 64 * MIB;

/** Options of {@link MemoryBudget}. */
export interface MemoryBudgetOptions {
  /** Every image byte held at once. @default 192 MiB */
  totalBytes?: number | undefined;
  /** The most one answer may take (the gateway's response cap); less than totalBytes. @default 64 MiB */
  answerBytes?: number | undefined;
  /** The most all describes hold together (their own region, within totalBytes). @default 64 MiB, or totalBytes if less */
  describeBytes?: number | undefined;
  /**
   * Asked after each admission, before the caller allocates, with what the budget counted before it, the bytes
   * admitted and the whole budget; settles once the bytes may be allocated (src/garbage.ts: room given back is freed
   * memory, not only a number). @default none
   */
  reclaim?: ((counted: number, incoming: number, ceiling: number) => Promise<void>) | undefined;
}

/** Gives taken bytes back; safe to call more than once. */
export type Release = () => void;

/** The process's budget; see the module comment. */
export class MemoryBudget {
  readonly totalBytes: number;
  readonly answerBytes: number;
  /** The most all jobs' references take together, and so the most one job's may: totalBytes − answerBytes. */
  readonly referenceBytes: number;
  /** The most all describes hold together. */
  readonly describeBytes: number;
  private readonly all: Semaphore;
  private readonly references: Semaphore;
  private readonly answers: Semaphore;
  private readonly describes: Semaphore;
  private readonly reclaim: (counted: number, incoming: number, ceiling: number) => Promise<void>;

  constructor(options: MemoryBudgetOptions = {}) {
    this.totalBytes = options.totalBytes ?? DEFAULT_MEMORY_BUDGET_BYTES;
    this.answerBytes = options.answerBytes ?? DEFAULT_ANSWER_BYTES;
    if (this.answerBytes >= this.totalBytes) throw new RangeError('the memory budget must be larger than one answer');
    this.referenceBytes = this.totalBytes - this.answerBytes;
    this.all = new Semaphore(this.totalBytes);
    this.references = new Semaphore(this.referenceBytes);
    this.answers = new Semaphore(this.answerBytes);
    this.describeBytes = Math.min(options.describeBytes ?? DEFAULT_DESCRIBE_BYTES, this.totalBytes);
    this.describes = new Semaphore(this.describeBytes);
    this.reclaim = options.reclaim ?? (() => Promise.resolve());
  }

  /** Bytes taken now (what the budget counts as held). */
  get inUse(): number {
    return this.all.inUse;
  }

  /**
   * Takes (waiting while they do not fit) room for one job's reference images; more than referenceBytes is a
   * RangeError. A wait abandoned through `signal` rejects with its reason and holds nothing.
   */
  async takeReferences(bytes: number, signal?: AbortSignal): Promise<Release> {
    if (bytes > this.referenceBytes) throw new RangeError(`references of ${bytes} bytes pass the budget's ${this.referenceBytes}`);
    return this.reclaimed(bytes, await inRegion(this.references, this.all, bytes, signal));
  }

  /**
   * Takes (waiting while it does not fit) room in the describes' region for one describe; more than describeBytes is
   * a RangeError. The hold can grow without waiting and shrink (DescribeHold).
   */
  async takeDescribe(bytes: number, signal?: AbortSignal): Promise<DescribeHold> {
    if (bytes > this.describeBytes) throw new RangeError(`a describe of ${bytes} bytes passes the region's ${this.describeBytes}`);
    const region = await this.describes.acquire(bytes, signal);
    try {
      const hold = new DescribeHold(this.describes, this.all, { region, all: await this.all.acquire(bytes, signal), bytes });
      return await this.reclaimed(bytes, hold);
    } catch (err) {
      region();
      throw err;
    }
  }

  /** Bytes the describes hold now. */
  get describeInUse(): number {
    return this.describes.inUse;
  }

  /** Takes (waiting while it does not fit, in the answers' region and in the whole) room for an answer; at most answerBytes. */
  async takeAnswer(bytes: number): Promise<Release> {
    const room = Math.min(bytes, this.answerBytes);
    return this.reclaimed(room, await inRegion(this.answers, this.all, room, undefined));
  }

  /** Bytes the answers hold now. */
  get answerInUse(): number {
    return this.answers.inUse;
  }

  /** Takes room for a short-lived work (a preview's re-encode) only if it is free now; undefined when it is not. */
  tryTake(bytes: number): Release | undefined {
    return this.all.tryAcquire(bytes);
  }

  /** `held`, once garbage beyond what the budget counted before these `bytes` is collected (best effort: never fails). */
  private async reclaimed<T>(bytes: number, held: T): Promise<T> {
    await this.reclaim(this.all.inUse - bytes, bytes, this.totalBytes).catch(() => undefined);
    return held;
  }

  /** One job's account; `unknownAnswerBytes` is what an answer of unknown length may take (answer-bound.ts). */
  forJob(unknownAnswerBytes: number): JobMemory {
    return new JobMemory(this, unknownAnswerBytes);
  }
}

/** One job's share of the budget: its references, then its answer (what it answers the gateway call's `admission` events with). */
export class JobMemory {
  private readonly budget: MemoryBudget;
  private readonly unknownAnswerBytes: number;
  private referencesTaken: Release | undefined;
  private answerTaken: Release | undefined;
  private over = false;

  constructor(budget: MemoryBudget, unknownAnswerBytes: number) {
    this.budget = budget;
    this.unknownAnswerBytes = Math.min(unknownAnswerBytes, budget.answerBytes);
  }

  /**
   * Takes room for the job's references before they are downloaded (once per job; a second call adds nothing). A
   * wait abandoned through `signal` (the job cancelled, or its wait over its limit) rejects and holds nothing.
   */
  async takeReferences(bytes: number, signal?: AbortSignal): Promise<void> {
    if (this.referencesTaken) return;
    const taken = await this.budget.takeReferences(bytes, signal);
    if (this.over) taken();
    else this.referencesTaken = taken;
  }

  /** Gives the references' room back once nothing reads them any more (the gateway call has settled). */
  releaseReferences(): void {
    this.referencesTaken?.();
    this.referencesTaken = undefined;
  }

  /**
   * Room for the answer about to be read (`bytes`, when declared; otherwise the most the job's images can weigh),
   * replacing the job's previous admission; resolves with the most bytes that may be read, once they fit.
   */
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

/** Room in a region and in the whole budget at once; a wait abandoned halfway gives back the region's part. */
async function inRegion(region: Semaphore, all: Semaphore, bytes: number, signal: AbortSignal | undefined): Promise<Release> {
  const inRegion = await region.acquire(bytes, signal);
  let taken: Release;
  try {
    taken = await all.acquire(bytes, signal);
  } catch (err) {
    inRegion();
    throw err;
  }
  return () => {
    taken();
    inRegion();
  };
}

/** One part of a describe's hold: units in its region and in the whole budget. */
interface HeldPart {
  region: PartialRelease;
  all: PartialRelease;
  bytes: number;
}

/**
 * What one describe holds in its region: it grows, without waiting, as its download brings more bytes than it took
 * room for, and shrinks once the image is smaller (downscaled), so it holds no more than it needs at each step.
 */
export class DescribeHold {
  private readonly region: Semaphore;
  private readonly all: Semaphore;
  private readonly parts: HeldPart[];

  constructor(region: Semaphore, all: Semaphore, first: HeldPart) {
    this.region = region;
    this.all = all;
    this.parts = [first];
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.parts.reduce((sum, part) => sum + part.bytes, 0);
  }

  /** Holds at least `bytes`, taking the difference only if it is free now; false (nothing more held) when it is not. */
  growTo(bytes: number): boolean {
    const more = bytes - this.bytes;
    if (more <= 0) return true;
    const region = this.region.tryAcquire(more);
    if (!region) return false;
    const all = this.all.tryAcquire(more);
    if (!all) {
      region();
      return false;
    }
    this.parts.push({ region, all, bytes: more });
    return true;
  }

  /** Gives back all but `bytes`. */
  shrinkTo(bytes: number): void {
    let excess = this.bytes - Math.max(0, bytes);
    for (let part = this.parts.at(-1); part && excess > 0; part = this.parts.at(-1)) {
      const given = Math.min(excess, part.bytes);
      part.region(given);
      part.all(given);
      part.bytes -= given;
      excess -= given;
      if (part.bytes === 0) this.parts.pop();
    }
  }

  /** Gives everything back; safe to call more than once. */
  release(): void {
    this.shrinkTo(0);
  }
}
