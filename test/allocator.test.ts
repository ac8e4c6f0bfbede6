/**
 * The memory allocator (docs/benchmarks.md, "Soak"): the Docker image preloads jemalloc, and the benchmark runs its
 * bots with the same allocator when the machine has it, so that the soak measures what the image ships.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { allocatorEnv, allocatorName, JEMALLOC_CONF, jemallocPath } from '../bench/allocator.js';

const dockerfile = readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8');
const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));

/** The shared libraries a Node started with `env` has mapped. */
function mappedLibraries(env: Record<string, string>): string {
  const script = "process.stdout.write(require('fs').readFileSync('/proc/self/maps', 'utf8'))";
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, ...env } });
  expect(result.status).toBe(0);
  return result.stdout;
}

describe('the memory allocator', () => {
  const saved = process.env['BENCH_ALLOCATOR'];
  afterEach(() => {
    if (saved === undefined) delete process.env['BENCH_ALLOCATOR'];
    else process.env['BENCH_ALLOCATOR'] = saved;
  });

  it("is jemalloc in the Docker image's runtime: installed, linked under one name and preloaded", () => {
    expect(runtime).toMatch(/apt-get install[^\n]*\blibjemalloc2\b/);
    expect(runtime).toContain('/usr/local/lib/libjemalloc.so.2');
    expect(runtime).toMatch(/^\s+LD_PRELOAD=\/usr\/local\/lib\/libjemalloc\.so\.2 \\$/m);
    expect(runtime).toContain(`    MALLOC_CONF=${JEMALLOC_CONF} \\\n`);
  });

  it('is what the bench preloads into its bots when the machine has it, and the process really maps it', () => {
    const path = jemallocPath();
    if (path === undefined) {
      // A machine without Debian's libjemalloc2: the bench says so and runs glibc's malloc.
      expect(allocatorEnv()).toEqual({});
      expect(allocatorName()).toBe('glibc malloc');
      return;
    }
    expect(allocatorEnv()).toEqual({ LD_PRELOAD: path, MALLOC_CONF: JEMALLOC_CONF });
    expect(mappedLibraries(allocatorEnv())).toContain('libjemalloc.so.2');
    expect(mappedLibraries({})).not.toContain('libjemalloc.so.2');
  });

  it('is glibc malloc when BENCH_ALLOCATOR=glibc', () => {
    process.env['BENCH_ALLOCATOR'] = 'glibc';
    expect(allocatorEnv()).toEqual({});
    expect(allocatorName()).toBe('glibc malloc');
  });
});
