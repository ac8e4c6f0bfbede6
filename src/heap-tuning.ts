/**
 * V8 garbage-collector tuning for the bot's allocation pattern.
 *
 * A job streams megabytes through short-lived strings and Buffers while the long-lived heap (discord.js, undici,
 * zod schemas, caches) stays around 40 MB. V8's default growth lets the old generation grow only to about 1.6×
 * its live size before the next full mark-compact, and starts that collection as soon as the room left is
 * smaller than the young generation: one full collection (15–30 ms of the main thread) per image job, inside the
 * job. Letting the old generation grow to 3× its live size before collecting again makes those collections rare.
 * The cost is memory: the heap may reach about 120 MB between collections (the benchmark's peak RSS with 100
 * jobs in flight stays near 300 MB, where external Buffers dominate and trigger collections of their own).
 *
 * `--heap-growing-percent` is read whenever V8 recomputes its limits, so setting it at start-up takes effect
 * from the next collection on.
 * @see https://nodejs.org/api/v8.html#v8setflagsfromstringflags
 */
import { setFlagsFromString } from 'node:v8';

/** Sets V8's old-generation growth factor to 1 + percent/100; 0 keeps V8's own heuristic. */
export function tuneHeapGrowth(percent: number, setFlags: (flags: string) => void = setFlagsFromString): void {
  if (percent > 0) setFlags(`--heap-growing-percent=${percent}`);
}
