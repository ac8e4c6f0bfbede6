/**
 * SVG renders take their turn member by member (issue 28): one member's many SVG jobs delay another member's render
 * by at most one of theirs, and no more than the capacity run at once.
 */
import { describe, expect, it } from 'vitest';
import { RenderSlots } from '../../src/service/svg-render.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('RenderSlots', () => {
  it("serves waiting members in turn: B's one render goes before A's third", async () => {
    const slots = new RenderSlots(1);
    const order: string[] = [];
    const releases: (() => void)[] = [];
    const first = await slots.acquire('A');
    for (const name of ['A2', 'A3', 'B1']) {
      void slots.acquire(name.slice(0, 1)).then((release) => {
        order.push(name);
        releases.push(release);
      });
    }
    expect(slots.waiting).toBe(3);
    first();
    // Each render, once granted, ends and gives its slot to the next.
    for (let i = 0; i < 3; i++) {
      await tick();
      releases[i]?.();
    }
    expect(order).toEqual(['A2', 'B1', 'A3']);
    expect(slots.waiting).toBe(0);
  });

  it('lets no more than its capacity through at once', async () => {
    const slots = new RenderSlots(2);
    const a = await slots.acquire('A');
    await slots.acquire('B');
    let third = false;
    const c = slots.acquire('C').then((release) => ((third = true), release));
    await tick();
    expect(third).toBe(false);
    a();
    a();
    (await c)();
    expect(third).toBe(true);
  });
});
