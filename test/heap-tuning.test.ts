/**
 * The garbage-collector tuning the bot applies at start-up (src/heap-tuning.ts): the flag V8 is given, and
 * nothing at all when the operator turned it off.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tuneHeapGrowth } from '../src/heap-tuning.js';

describe('tuneHeapGrowth', () => {
  it('sets V8 old-generation growth to the configured percentage', () => {
    const flags: string[] = [];
    tuneHeapGrowth(200, (f) => flags.push(f));
    expect(flags).toEqual(['--heap-growing-percent=200']);
  });

  it('leaves V8 alone with 0', () => {
    const flags: string[] = [];
    tuneHeapGrowth(0, (f) => flags.push(f));
    expect(flags).toEqual([]);
  });

  it('is a flag this Node accepts', () => {
    const flags: string[] = [];
    tuneHeapGrowth(200, (f) => flags.push(f));
    // Node refuses an unknown flag on the command line (exit 9); setFlagsFromString would silently ignore a typo.
    const out = execFileSync(process.execPath, [...flags, '-e', 'process.stdout.write("ok")'], { encoding: 'utf8' });
    expect(out).toBe('ok');
  });
});
