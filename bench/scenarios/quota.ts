/**
 * Quota store: reservations per second and their latency, `concurrency` reservations in flight, for `durationMs`
 * on each backend (memory, SQLite, and Redis / PostgreSQL when REDIS_URL / POSTGRES_URL are set). Runs in the
 * orchestrator process with nothing else running. Each backend gets a fresh namespace that is cleared at the end.
 * Then the same across processes (quota-processes.ts) on every backend processes can share.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { openBackend } from '../../src/storage/open-backend.js';
import { createStorage } from '../../src/storage/open-storage.js';
import { parseStorageUrl } from '../../src/storage/storage-url.js';
import { round, summarize } from '../stats.js';
import { sqliteUrl, type Figures } from './common.js';
import { quotaAcrossProcesses, type QuotaProcessesParams } from './quota-processes.js';

export interface QuotaParams {
  durationMs: number;
  concurrency: number;
  members: number;
  processes: QuotaProcessesParams;
  redisUrl?: string | undefined;
  postgresUrl?: string | undefined;
}

export interface QuotaResult {
  params: Omit<QuotaParams, 'redisUrl' | 'postgresUrl'>;
  /** Per backend; `skipped` says why a backend did not run. */
  backends: Record<string, Figures | { skipped: string }>;
  /** Per backend that processes can share, with several processes reserving at once. */
  acrossProcesses: Record<string, Figures | { skipped: string }>;
}

async function measure(url: string, p: QuotaParams): Promise<Figures> {
  const logger = pino({ level: 'silent' });
  const namespace = `imagine-bench-${process.pid}-${Date.now()}`;
  const backend = await openBackend(parseStorageUrl(url), { namespace, connectTimeoutMs: 5_000, logger });
  const storage = createStorage(backend, { defaults: { limit: 1_000_000_000, period: 'day' }, jobLeaseMs: 600_000, logger });
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + p.durationMs;
  const worker = async () => {
    while (performance.now() < deadline) {
      const i = next++;
      const subject = { guildId: '100000000000000001', userId: String(200_000_000_000_000_000n + BigInt(i % p.members)), roleIds: [] };
      const t0 = performance.now();
      try {
        const outcome = await storage.quotas.reserve(subject, `bench-job-${i}`, 1);
        if (!outcome.ok) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  let ended: number;
  try {
    await Promise.all(Array.from({ length: p.concurrency }, worker));
    ended = performance.now();
  } finally {
    await Promise.all([backend.kv.clear(), backend.ledger.clear()]).catch(() => undefined);
    await storage.close();
    if (url.startsWith('sqlite://')) rmSync(dirname(url.slice('sqlite://'.length)), { recursive: true, force: true });
  }
  const elapsed = ended - started;
  const s = summarize(latencies);
  return {
    reservationsPerSecond: round((latencies.length / elapsed) * 1000, 0),
    latencyP50Ms: round(s.p50, 2),
    latencyP99Ms: round(s.p99, 2),
    errors,
  };
}

export async function quota(p: QuotaParams): Promise<QuotaResult> {
  const { redisUrl, postgresUrl, ...params } = p;
  const targets: [string, string | undefined][] = [
    ['memory', 'memory://'],
    ['sqlite', sqliteUrl()],
    ['redis', redisUrl],
    ['postgres', postgresUrl],
  ];
  const backends: QuotaResult['backends'] = {};
  for (const [name, url] of targets) backends[name] = await runOn(name, url, () => measure(url ?? '', p));
  const acrossProcesses: QuotaResult['acrossProcesses'] = {};
  for (const [name, url] of targets.slice(1)) {
    // A fresh SQLite file: the single-process run above removed its own.
    const shared = name === 'sqlite' ? sqliteUrl() : url;
    acrossProcesses[name] = await runOn(name, shared, () => quotaAcrossProcesses(shared ?? '', p.processes));
  }
  return { params, backends, acrossProcesses };
}

async function runOn(name: string, url: string | undefined, run: () => Promise<Figures>): Promise<Figures | { skipped: string }> {
  if (!url) return { skipped: `${name === 'redis' ? 'REDIS_URL' : 'POSTGRES_URL'} not set` };
  try {
    return await run();
  } catch (err) {
    return { skipped: `could not run: ${err instanceof Error ? err.message : String(err)}` };
  }
}
