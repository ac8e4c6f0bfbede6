/**
 * The memory allocator the bots run with in the bench: jemalloc, preloaded as the Docker image does, when the machine
 * has it (Debian's libjemalloc2); glibc's malloc otherwise, or with BENCH_ALLOCATOR=glibc. glibc's per-thread arenas
 * keep memory freed by libvips' and libuv's threads, so a long-running process that decodes images grows (sharp's
 * documentation recommends jemalloc; docs/benchmarks.md, "Soak"). Both bots get the same allocator. The startup
 * scenario is `npm start` as it runs by default, with the system's allocator (jemalloc costs a few MB at rest).
 */
import { existsSync } from 'node:fs';
import { arch } from 'node:os';

const LIBRARY_DIRS: Record<string, string> = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' };

/**
 * jemalloc's settings, as in the Docker image: freed pages go back to the system after about a second, by a
 * background thread, instead of jemalloc's default ten seconds.
 */
export const JEMALLOC_CONF = 'background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0';

/** The path of libjemalloc.so.2, when the bench preloads it. */
export function jemallocPath(): string | undefined {
  if (process.env['BENCH_ALLOCATOR'] === 'glibc' || process.platform !== 'linux') return undefined;
  const dir = LIBRARY_DIRS[arch()];
  const path = dir && `/usr/lib/${dir}/libjemalloc.so.2`;
  return path && existsSync(path) ? path : undefined;
}

/** The environment that preloads it into a bot process ({} when it is not used). */
export function allocatorEnv(): Record<string, string> {
  const path = jemallocPath();
  return path ? { LD_PRELOAD: path, MALLOC_CONF: process.env['BENCH_MALLOC_CONF'] ?? JEMALLOC_CONF } : {};
}

/** What the report names: `jemalloc (…path)` or `glibc malloc`. */
export function allocatorName(): string {
  const path = jemallocPath();
  return path ? `jemalloc (LD_PRELOAD=${path}, as the Docker image)` : 'glibc malloc';
}
