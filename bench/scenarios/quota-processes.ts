/**
 * Quota ledger across processes: two processes reserve on one store at once, more than the members' limits allow,
 * and the count accepted must be exactly what the limits allow (members × limit), both by the hosts' count and by
 * the ledger's own record. Reservations per second = all reservations (accepted and refused) / wall time.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { openBackend } from '../../src/storage/open-backend.js';
import { createStorage } from '../../src/storage/open-storage.js';
import { parseStorageUrl } from '../../src/storage/storage-url.js';
import { HostProcess } from '../ipc.js';
import { benchMember, type QuotaHostReserveResult } from '../quota-host.js';
import { round, summarize } from '../stats.js';
import type { Figures } from './common.js';

export interface QuotaProcessesParams {
  processes: number;
  /** Reservations per process. */
  reservations: number;
  /** Reservations in flight per process. */
  concurrency: number;
  members: number;
  /** Limit per member: processes × reservations / members must exceed it, so some are refused. */
  limit: number;
}

const NOW = Date.parse('2025-03-12T12:00:00Z');

/** Runs the processes against `url` (a fresh namespace, cleared afterwards) and returns the figures. */
export async function quotaAcrossProcesses(url: string, p: QuotaProcessesParams): Promise<Figures> {
  const namespace = `imagine-bench-processes-${process.pid}-${Date.now()}`;
  const hosts = Array.from({ length: p.processes }, () => HostProcess.start('./quota-host.ts'));
  try {
    await Promise.all(hosts.map((host) => host.call('open', { url, namespace, limit: p.limit, now: NOW })));
    const started = performance.now();
    const results = await Promise.all(
      hosts.map((host, index) =>
        host.call<QuotaHostReserveResult>('reserve', { reservations: p.reservations, members: p.members, concurrency: p.concurrency, jobPrefix: `p${index}` }),
      ),
    );
    const elapsed = performance.now() - started;
    const recorded = await reservedInLedger(url, namespace, p);
    return figures(results, elapsed, recorded, p);
  } finally {
    await Promise.all(hosts.map((host) => host.stop()));
    await clear(url, namespace);
  }
}

function figures(results: QuotaHostReserveResult[], elapsedMs: number, recorded: number, p: QuotaProcessesParams): Figures {
  const sum = (pick: (r: QuotaHostReserveResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  const latency = summarize(results.flatMap((r) => r.latenciesMs));
  const expected = p.members * Math.min(p.limit, Math.floor((p.processes * p.reservations) / p.members));
  return {
    reservationsPerSecond: round(((p.processes * p.reservations) / elapsedMs) * 1000, 0),
    latencyP50Ms: round(latency.p50, 2),
    latencyP99Ms: round(latency.p99, 2),
    accepted: sum((r) => r.accepted),
    expectedAccepted: expected,
    recordedReserved: recorded,
    refused: sum((r) => r.refused),
    errors: sum((r) => r.errors),
  };
}

/** What the ledger itself says is reserved, summed over the members. */
async function reservedInLedger(url: string, namespace: string, p: QuotaProcessesParams): Promise<number> {
  const logger = pino({ level: 'silent' });
  const backend = await openBackend(parseStorageUrl(url), { namespace, connectTimeoutMs: 5_000, logger });
  const storage = createStorage(backend, { defaults: { limit: p.limit, period: 'day' }, jobLeaseMs: 600_000, clock: { now: () => NOW }, logger });
  try {
    const statuses = await Promise.all(Array.from({ length: p.members }, (_, i) => storage.quotas.status(benchMember(i))));
    return statuses.reduce((total, s) => total + s.reserved, 0);
  } finally {
    await storage.close();
  }
}

async function clear(url: string, namespace: string): Promise<void> {
  if (url.startsWith('sqlite://')) {
    rmSync(dirname(url.slice('sqlite://'.length)), { recursive: true, force: true });
    return;
  }
  const backend = await openBackend(parseStorageUrl(url), { namespace, connectTimeoutMs: 5_000, logger: pino({ level: 'silent' }) });
  await Promise.all([backend.kv.clear(), backend.ledger.clear()]).finally(() => backend.close());
}
