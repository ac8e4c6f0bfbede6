/**
 * Child process making quota reservations on a shared store, for the quota scenario's figure across processes.
 * Driven by bench/ipc.ts commands: `open` the store, then `reserve` a batch once every process has opened it.
 */
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { openBackend } from '../src/storage/open-backend.js';
import { createStorage, type Storage } from '../src/storage/open-storage.js';
import { parseStorageUrl } from '../src/storage/storage-url.js';
import { serve } from './ipc.js';

export interface QuotaHostOpenArgs {
  url: string;
  namespace: string;
  /** Default limit per member and day. */
  limit: number;
  /**
   * The time every process's ledger starts from, so all work in one period; it then runs on with real time, so
   * cached limits go stale as they would in a bot.
   */
  now: number;
}

export interface QuotaHostReserveArgs {
  /** Reservations of one image each; job `i` is for member `i % members`. */
  reservations: number;
  members: number;
  /** Reservations in flight at once. */
  concurrency: number;
  jobPrefix: string;
}

export interface QuotaHostReserveResult {
  accepted: number;
  refused: number;
  errors: number;
  elapsedMs: number;
  latenciesMs: number[];
}

/** The member ids both the hosts and the orchestrator use. */
export function benchMember(index: number): { guildId: string; userId: string; roleIds: string[] } {
  return { guildId: '100000000000000001', userId: String(200_000_000_000_000_000n + BigInt(index)), roleIds: [] };
}

let storage: Storage | undefined;

async function open(args: QuotaHostOpenArgs): Promise<void> {
  const logger = pino({ level: 'silent' });
  const backend = await openBackend(parseStorageUrl(args.url), { namespace: args.namespace, connectTimeoutMs: 5_000, logger });
  const offset = args.now - Date.now();
  storage = createStorage(backend, { defaults: { limit: args.limit, period: 'day' }, jobLeaseMs: 600_000, clock: { now: () => Date.now() + offset }, logger });
}

async function reserve(args: QuotaHostReserveArgs): Promise<QuotaHostReserveResult> {
  const quotas = storage?.quotas;
  if (!quotas) throw new Error('open the store first');
  const result: QuotaHostReserveResult = { accepted: 0, refused: 0, errors: 0, elapsedMs: 0, latenciesMs: [] };
  let next = 0;
  const worker = async () => {
    while (next < args.reservations) {
      const i = next++;
      const t0 = performance.now();
      try {
        const outcome = await quotas.reserve(benchMember(i % args.members), `${args.jobPrefix}-${i}`, 1);
        if (outcome.ok) result.accepted += 1;
        else result.refused += 1;
      } catch {
        result.errors += 1;
      }
      result.latenciesMs.push(performance.now() - t0);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: args.concurrency }, worker));
  result.elapsedMs = performance.now() - started;
  return result;
}

serve({ open, reserve }, async () => {
  await storage?.close();
});
