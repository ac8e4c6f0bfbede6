/**
 * The memory budget on its own: references take from a region that leaves one answer's room, answers take at most
 * that room, a job's later admission gives back its earlier one first, and a job that ends while it waits keeps
 * nothing.
 */
import { describe, expect, it } from 'vitest';
import { MemoryBudget } from '../../src/service/memory-budget.js';

/** Whether `promise` has settled once the microtasks and one macrotask ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('MemoryBudget', () => {
  it('keeps one answer’s room free of references, so an answer always fits once no answer holds room', async () => {
    const budget = new MemoryBudget({ totalBytes: 1_000, answerBytes: 400 });
    expect(budget.referenceBytes).toBe(600);
    // Two running jobs hold references up to the region; neither can starve the other's answer.
    const a = budget.forJob(400);
    const b = budget.forJob(400);
    await a.takeReferences(300);
    await b.takeReferences(300);
    const c = budget.forJob(400);
    const cWaits = c.takeReferences(100);
    expect(await settled(cWaits)).toBe(false);
    expect(await a.admit(undefined)).toBe(400);
    expect(budget.inUse).toBe(1_000);
    // b's answer waits for a's, and gets it when a is over; c's references wait for the region.
    const bAdmitted = b.admit(350);
    expect(await settled(bAdmitted)).toBe(false);
    a.release();
    expect(await bAdmitted).toBe(350);
    await cWaits;
    expect(budget.inUse).toBe(300 + 350 + 100);
    b.release();
    c.release();
    expect(budget.inUse).toBe(0);
  });

  it('refuses references that could never fit, and caps an answer at its room', async () => {
    const budget = new MemoryBudget({ totalBytes: 1_000, answerBytes: 400 });
    await expect(budget.takeReferences(601)).rejects.toThrow(RangeError);
    const job = budget.forJob(5_000);
    expect(await job.admit(undefined)).toBe(400);
    expect(await job.admit(10_000)).toBe(400);
    expect(budget.inUse).toBe(400);
    job.release();
  });

  it('replaces a job’s admission instead of adding to it, giving the earlier one back before waiting', async () => {
    const budget = new MemoryBudget({ totalBytes: 1_000, answerBytes: 400 });
    const first = budget.forJob(400);
    const second = budget.forJob(400);
    await first.takeReferences(500);
    await first.admit(300);
    await second.admit(100);
    // first's links need 400 (the answers' whole region): it gives its 300 back before it waits (no answer waits holding room) …
    const links = first.admit(400);
    expect(await settled(links)).toBe(false);
    expect(budget.inUse).toBe(500 + 100);
    // … and gets the 400 once second is over.
    second.release();
    expect(await links).toBe(400);
    expect(budget.inUse).toBe(500 + 400);
    first.release();
    expect(budget.inUse).toBe(0);
  });

  it('lets the answers together hold no more than one answer’s room, however much of the budget is free', async () => {
    const budget = new MemoryBudget({ totalBytes: 1_000, answerBytes: 400 });
    const first = budget.forJob(400);
    const second = budget.forJob(400);
    expect(await first.admit(300)).toBe(300);
    const waiting = second.admit(300);
    expect(await settled(waiting)).toBe(false);
    expect([budget.inUse, budget.answerInUse]).toEqual([300, 300]);
    first.release();
    expect(await waiting).toBe(300);
    second.release();
    expect(budget.inUse).toBe(0);
  });

  it('gives back what a job was granted after it ended while waiting', async () => {
    const budget = new MemoryBudget({ totalBytes: 1_000, answerBytes: 400 });
    const holder = budget.forJob(400);
    await holder.takeReferences(600);
    await holder.admit(400);
    const late = budget.forJob(400);
    const waiting = late.admit(400);
    late.release();
    holder.release();
    await waiting;
    expect(budget.inUse).toBe(0);
  });

  it('lets a job stop waiting for its references (cancelled, or waited too long), holding nothing', async () => {
    const budget = new MemoryBudget({ totalBytes: 1_000, answerBytes: 400 });
    const holder = budget.forJob(400);
    await holder.takeReferences(600);
    const waiting = budget.forJob(400);
    const controller = new AbortController();
    const taking = waiting.takeReferences(100, controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(taking).rejects.toThrow('cancelled');
    holder.release();
    expect(budget.inUse).toBe(0);
  });

  it("keeps describes in a region of their own, counted in the total: they never take the references' room", async () => {
    const budget = new MemoryBudget({ totalBytes: 1_000, answerBytes: 400, describeBytes: 300 });
    const describe = await budget.takeDescribe(300);
    // The references' region is whole (an edit waits for no describe) …
    const references = await budget.takeReferences(600);
    expect(budget.inUse).toBe(900);
    // … and the describes' is full: growing fails without waiting, shrinking gives room back.
    expect(describe.growTo(301)).toBe(false);
    describe.shrinkTo(100);
    expect(budget.describeInUse).toBe(100);
    expect(describe.growTo(250)).toBe(true);
    expect(budget.describeInUse).toBe(250);
    describe.release();
    references();
    expect(budget.inUse).toBe(0);
  });

  it('must be larger than one answer', () => {
    expect(() => new MemoryBudget({ totalBytes: 400, answerBytes: 400 })).toThrow(RangeError);
  });

  it('takes a job’s references once, and gives back room granted after the job ended while it waited', async () => {
    const budget = new MemoryBudget({ totalBytes: 1_000, answerBytes: 400 });
    const job = budget.forJob(100);
    await job.takeReferences(300);
    await job.takeReferences(300);
    expect(budget.inUse).toBe(300);
    job.release();
    expect(budget.inUse).toBe(0);
    const blocker = budget.forJob(100);
    await blocker.takeReferences(600);
    const late = budget.forJob(100);
    const waiting = late.takeReferences(200);
    late.release();
    blocker.release();
    await waiting;
    expect(budget.inUse).toBe(0);
  });

  it('refuses a describe larger than its region, and grows a describe’s hold only with room free now', async () => {
    const budget = new MemoryBudget({ totalBytes: 1_000, answerBytes: 400, describeBytes: 300 });
    await expect(budget.takeDescribe(301)).rejects.toThrow(RangeError);
    const hold = await budget.takeDescribe(100);
    expect(hold.growTo(50)).toBe(true);
    expect(hold.growTo(300)).toBe(true);
    expect(hold.growTo(301)).toBe(false);
    const other = budget.forJob(100);
    hold.release();
    await other.takeReferences(600);
    const second = await budget.takeDescribe(100);
    // Room in the describes' region, but not in the whole budget: nothing more is held.
    const rest = budget.tryTake(250);
    expect(second.growTo(300)).toBe(false);
    expect(second.bytes).toBe(100);
    rest?.();
    second.release();
    other.release();
    expect(budget.inUse).toBe(0);
  });

  it('asks reclaim before the caller allocates: what it counted before, the bytes admitted and the whole budget', async () => {
    const asked: [number, number, number][] = [];
    let allow: () => void = () => undefined;
    const reclaim = (counted: number, incoming: number, ceiling: number) => {
      asked.push([counted, incoming, ceiling]);
      return new Promise<void>((resolve) => (allow = resolve));
    };
    const budget = new MemoryBudget({ totalBytes: 1_000, answerBytes: 400, describeBytes: 200, reclaim });
    const job = budget.forJob(400);
    const references = job.takeReferences(300);
    // The room is taken, but the references may not be allocated until reclaim settles.
    expect(await settled(references)).toBe(false);
    expect(asked).toEqual([[0, 300, 1_000]]);
    allow();
    await references;
    const answer = job.admit(350);
    expect(await settled(answer)).toBe(false);
    expect(asked.at(-1)).toEqual([300, 350, 1_000]);
    allow();
    expect(await answer).toBe(350);
    const describe = budget.takeDescribe(100);
    expect(await settled(describe)).toBe(false);
    expect(asked.at(-1)).toEqual([650, 100, 1_000]);
    allow();
    (await describe).release();
    job.release();
    expect(budget.inUse).toBe(0);
  });

  it('admits all the same when reclaim fails (a collection is a help, never a condition)', async () => {
    const budget = new MemoryBudget({ totalBytes: 1_000, answerBytes: 400, reclaim: () => Promise.reject(new Error('no collector')) });
    const job = budget.forJob(400);
    await job.takeReferences(300);
    expect(await job.admit(100)).toBe(100);
    expect(budget.inUse).toBe(400);
    job.release();
  });
});
