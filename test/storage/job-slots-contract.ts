/**
 * What cluster job slots promise on every backend that offers them: at most `global` holders, at most `perMember`
 * of one member, a release frees, an aborted wait holds nothing, a holder whose process is killed frees its slot, and
 * the lanes share freed slots across processes (priority first, one in every four for a waiting normal job).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SlotHold } from '../../src/ports/job-slots.js';
import type { Lane } from '../../src/core/server-settings.js';
import type { ClusterJobSlots, JobSlotLimits } from '../../src/storage/job-slots.js';
import { startFixture } from './fixture-process.js';
import type { SlotHolderTask } from './fixtures/slot-holder.js';

/** Opens slots with `limits` under the same namespace each call (so two calls are two "processes" on one store). */
export interface SlotsOpener {
  open(limits: JobSlotLimits): Promise<ClusterJobSlots>;
  /** The task a child process needs to hold a slot under the same namespace. */
  holderTask(limits: JobSlotLimits, memberId: string): SlotHolderTask;
  cleanup(): Promise<void>;
}

/** An acquisition under way: `waiting` resolves once its first attempt found no free slot. */
function acquiring(slots: ClusterJobSlots, memberId: string, controller = new AbortController(), lane?: Lane) {
  let waited!: () => void;
  const waiting = new Promise<void>((resolve) => (waited = resolve));
  const hold = slots.acquire(memberId, { signal: controller.signal, onWait: () => waited(), lane });
  return { hold, waiting, controller };
}

/** Acquires a slot that must be free now (no wait). */
async function acquireFree(slots: ClusterJobSlots, memberId: string): Promise<SlotHold> {
  let waited = false;
  const hold = await slots.acquire(memberId, { signal: new AbortController().signal, onWait: () => (waited = true) });
  expect(waited, `${memberId} had to wait`).toBe(false);
  return hold;
}

export function describeJobSlotsContract(name: string, createOpener: () => SlotsOpener): void {
  describe(`${name} job slots`, () => {
    let opener: SlotsOpener;
    afterEach(async () => {
      await opener.cleanup();
    });
    const open = (limits: JobSlotLimits) => {
      opener = createOpener();
      return opener.open(limits);
    };

    it('holds at most `global` slots across members, and a release lets a waiting one in', async () => {
      const slots = await open({ global: 3, perMember: 2 });
      const holds = [await acquireFree(slots, 'a'), await acquireFree(slots, 'b'), await acquireFree(slots, 'c')];
      const fourth = acquiring(slots, 'd');
      await fourth.waiting;
      await holds[1]?.release();
      await expect(fourth.hold).resolves.toBeDefined();
    });

    it("holds at most `perMember` of one member's slots without holding back other members", async () => {
      const slots = await open({ global: 5, perMember: 2 });
      const first = await acquireFree(slots, 'a');
      await acquireFree(slots, 'a');
      const third = acquiring(slots, 'a');
      await third.waiting;
      await acquireFree(slots, 'b');
      await first.release();
      await expect(third.hold).resolves.toBeDefined();
    });

    it('rejects an aborted wait with its reason, holding nothing', async () => {
      const slots = await open({ global: 1, perMember: 1 });
      const held = await acquireFree(slots, 'a');
      const waiter = acquiring(slots, 'b');
      await waiter.waiting;
      const reason = new Error('cancelled');
      waiter.controller.abort(reason);
      await expect(waiter.hold).rejects.toBe(reason);
      await held.release();
      await acquireFree(slots, 'c');
    });

    it('frees a hold once however often it is released', async () => {
      const slots = await open({ global: 1, perMember: 1 });
      const held = await acquireFree(slots, 'a');
      await held.release();
      await held.release();
      await acquireFree(slots, 'b');
      const waiter = acquiring(slots, 'c');
      await waiter.waiting;
      waiter.controller.abort(new Error('done'));
      await expect(waiter.hold).rejects.toThrow('done');
    });

    it('shares the slots between two openings of one store, as between processes', async () => {
      const first = await open({ global: 2, perMember: 1 });
      const second = await opener.open({ global: 2, perMember: 1 });
      const a = await acquireFree(first, 'a');
      const sameMember = acquiring(second, 'a');
      await sameMember.waiting;
      const b = await acquireFree(second, 'b');
      await a.release();
      await expect(sameMember.hold).resolves.toBeDefined();
      const third = acquiring(first, 'c');
      await third.waiting;
      await b.release();
      await expect(third.hold).resolves.toBeDefined();
    });

    it('gives a waiting normal job one slot in every four while priority jobs of other processes wait, after three of theirs', async () => {
      const first = await open({ global: 1, perMember: 1 });
      const second = await opener.open({ global: 1, perMember: 1 });
      const held = await acquireFree(first, 'x');
      const granted: string[] = [];
      const waiters = [
        ...['p1', 'p2', 'p3', 'p4', 'p5'].map((member) => ({ member, ...acquiring(first, member, undefined, 'priority') })),
        { member: 'n1', ...acquiring(second, 'n1', undefined, 'normal') },
      ];
      await Promise.all(waiters.map((w) => w.waiting));
      // Each job gives its slot back as soon as it has it, so the next one can take it.
      const done = waiters.map(async ({ member, hold }) => {
        const holding = await hold;
        granted.push(member);
        await holding.release();
      });
      await held.release();
      await Promise.all(done);
      expect(granted.map((member) => member[0]).join('')).toBe('pppnpp');
    });

    it('frees the slot of a holder whose process is killed', async () => {
      const limits = { global: 1, perMember: 1 };
      const slots = await open(limits);
      const holder = startFixture('slot-holder', opener.holderTask(limits, 'a'));
      try {
        expect(await holder.nextLine()).toBe('held');
        const waiter = acquiring(slots, 'b');
        await waiter.waiting;
        holder.process.kill('SIGKILL');
        await expect(waiter.hold).resolves.toBeDefined();
        expect(await holder.exited).toBe('SIGKILL');
      } finally {
        holder.process.kill('SIGKILL');
      }
    });
  });
}
