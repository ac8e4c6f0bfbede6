/**
 * Garbage the memory budget cannot see (src/garbage.ts): socket chunks scavenged every CHUNK_GARBAGE_BYTES read, and a
 * full collection before an admission whose bytes would take the process's ArrayBuffers past the budget while more
 * than RECLAIM_SLACK_BYTES of them are garbage. Then the same in a real Node started with `--expose-gc`.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHUNK_GARBAGE_BYTES, Garbage, RECLAIM_SLACK_BYTES } from '../src/garbage.js';

const MIB = 1024 * 1024;

/** A runtime whose collector is recorded and whose async collections settle when `finish` is called. */
function fakeRuntime(arrayBuffers: number) {
  const calls: NodeJS.GCOptions[] = [];
  let finish: () => void = () => undefined;
  const gc = ((options: NodeJS.GCOptions) => {
    calls.push(options);
    if (options.execution !== 'async') return undefined;
    return new Promise<void>((resolve) => (finish = resolve));
  }) as NodeJS.GCFunction;
  const runtime = { gc, arrayBuffers: () => arrayBuffers };
  return { runtime, calls, finish: () => finish(), setArrayBuffers: (bytes: number) => (arrayBuffers = bytes) };
}

describe('Garbage', () => {
  it('scavenges once every CHUNK_GARBAGE_BYTES of socket chunks read', () => {
    const { runtime, calls } = fakeRuntime(0);
    const garbage = new Garbage(runtime);
    garbage.chunksRead(CHUNK_GARBAGE_BYTES - 1);
    expect(calls).toEqual([]);
    garbage.chunksRead(1);
    expect(calls).toEqual([{ type: 'minor' }]);
    garbage.chunksRead(CHUNK_GARBAGE_BYTES - 1);
    expect(calls).toHaveLength(1);
    garbage.chunksRead(1);
    expect(calls).toHaveLength(2);
  });

  it('leaves garbage to V8 while the new bytes fit the budget, or while there is little of it', async () => {
    const { runtime, calls } = fakeRuntime(150 * MIB);
    const garbage = new Garbage(runtime);
    // 150 allocated, 40 of it garbage: 40 more fit a ceiling of 192.
    await garbage.reclaim(110 * MIB, 40 * MIB, 192 * MIB);
    // 60 more would not fit, but only the slack is garbage.
    await garbage.reclaim(150 * MIB - RECLAIM_SLACK_BYTES, 60 * MIB, 192 * MIB);
    expect(calls).toEqual([]);
  });

  it('collects once before bytes that would pass the budget while garbage is over the slack, shared by callers', async () => {
    const { runtime, calls, finish } = fakeRuntime(180 * MIB);
    const garbage = new Garbage(runtime);
    let settled = 0;
    const first = garbage.reclaim(60 * MIB, 61 * MIB, 192 * MIB).then(() => settled++);
    const second = garbage.reclaim(60 * MIB, 10 * MIB, 192 * MIB).then(() => settled++);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([{ type: 'major', execution: 'async' }]);
    expect(settled).toBe(0);
    finish();
    await Promise.all([first, second]);
    expect(settled).toBe(2);
    // Once it is over, the next admission that needs one asks again.
    const third = garbage.reclaim(60 * MIB, 61 * MIB, 192 * MIB);
    expect(calls).toHaveLength(2);
    finish();
    await third;
  });

  it('does nothing where V8 offers no collector (a process without --expose-gc)', async () => {
    const garbage = new Garbage({ gc: undefined, arrayBuffers: () => 1024 * MIB });
    garbage.chunksRead(10 * CHUNK_GARBAGE_BYTES);
    await expect(garbage.reclaim(0, 64 * MIB, 192 * MIB)).resolves.toBeUndefined();
  });
});

describe('processGarbage in a Node started with --expose-gc', () => {
  const child = fileURLToPath(new URL('fixtures/garbage-child.ts', import.meta.url));
  const run = (mode: string) => {
    const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', child, mode], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    return JSON.parse(result.stdout) as { exposed: boolean; collected: boolean; before: number; after: number };
  };

  it('frees a dropped Buffer of the old generation before new bytes are allocated, which V8 alone does not', () => {
    const reclaimed = run('reclaim');
    expect(reclaimed.exposed).toBe(true);
    expect(reclaimed.collected).toBe(true);
    expect(reclaimed.before).toBeGreaterThanOrEqual(64 * MIB);
    expect(reclaimed.after).toBeLessThan(reclaimed.before - 60 * MIB);
    const control = run('control');
    expect(control.collected).toBe(false);
    expect(control.after).toBeGreaterThanOrEqual(64 * MIB);
  });
});
