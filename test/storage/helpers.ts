import pino from 'pino';

/** A clock the test moves by hand (shared with the service tests). */
export { ManualClock } from '../fakes/manual-clock.js';

/** A pino logger that keeps its lines in memory, so tests can assert on them. */
export function memoryLogger(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = {
    write(line: string): void {
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed === 'object' && parsed !== null) lines.push({ ...parsed });
    },
  };
  return { logger: pino({ level: 'debug' }, stream), lines };
}

export const silentLogger = pino({ level: 'silent' });

/** Deterministic PRNG (mulberry32): the same seed gives the same interleaving. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Lets other pending promises run `turns` times, to shuffle concurrent operations. */
export async function yieldTurns(turns: number): Promise<void> {
  for (let i = 0; i < turns; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * Resolves once `check` holds, asking again after each `intervalMs`; for state outside the process (a database's
 * view of its sessions, a log line written on another connection's event) that no event of ours announces.
 */
export async function eventually(check: () => Promise<boolean> | boolean, what: string, attempts = 500, intervalMs = 10): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (await check()) return;
    await new Promise<void>((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`gave up waiting for ${what}`);
}
