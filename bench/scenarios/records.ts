/**
 * Records and PostgreSQL slots (issue 28), in the orchestrator process with nothing else running:
 * - Usage totals: one settled job's write (`usageTotals.add`) timed one at a time, to a server's day that counts 5
 *   members and then `members` (5,000 in a full run), on SQLite and on Redis / PostgreSQL when their URLs are set:
 *   wall time p50/p99 and CPU per write (the process's user + system time over the writes), delivered jobs and
 *   refusals alike. The issue measured 14.6 ms of CPU and a 1.4 MB record per write after 5,000 members.
 * - PostgreSQL job slots: `held` jobs hold all MAX_CONCURRENT_JOBS=`held` slots through one opening while `waiting`
 *   jobs of other members wait through another (two "processes"), for `durationMs`: the statements both send per
 *   second, counted on the client (pg's query method, wrapped), first with nothing released, then with a slot
 *   released and taken again every `churnEveryMs`. The issue measured 5,709 statements/s at 32.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import pino from 'pino';
import type { SlotHold } from '../../src/ports/job-slots.js';
import type { SettledJob } from '../../src/core/usage-totals.js';
import type { ClusterJobSlots } from '../../src/storage/job-slots.js';
import { openBackend } from '../../src/storage/open-backend.js';
import { openJobSlots } from '../../src/storage/open-job-slots.js';
import { createStorage, type Storage } from '../../src/storage/open-storage.js';
import { parseStorageUrl } from '../../src/storage/storage-url.js';
import { round, summarize } from '../stats.js';
import { sqliteUrl, type Figures } from './common.js';

export interface RecordsParams {
  /** Members of the large day. */
  members: number;
  /** Writes timed at each size (half delivered jobs, half refusals). */
  writes: number;
  slots: { held: number; waiting: number; durationMs: number; churnEveryMs: number };
  redisUrl?: string | undefined;
  postgresUrl?: string | undefined;
}

export interface RecordsResult {
  params: Omit<RecordsParams, 'redisUrl' | 'postgresUrl'>;
  /** Usage-total writes per backend; `skipped` says why a backend did not run. */
  usageWrites: Record<string, Figures | { skipped: string }>;
  postgresSlots: Figures | { skipped: string };
}

const logger = pino({ level: 'silent' });
const GUILD = '100000000000000001';
const userId = (i: number) => String(300_000_000_000_000_000n + BigInt(i));
const ROLES = ['400000000000000001', '400000000000000002'];

const job = (i: number, refused: boolean): SettledJob => ({
  jobId: randomUUID(),
  userId: userId(i),
  roleIds: ROLES,
  outcome: refused ? 'refused' : 'delivered',
  reason: refused ? 'quota.exceeded' : undefined,
  model: 'gpt-image-2',
  delivered: refused ? 0 : 1,
  cost: refused ? undefined : { usd: 0.02, source: 'reported' },
  reachedGateway: !refused,
});

/** Times `writes` writes one after another by members below `members`: wall p50/p99 and CPU per write (ms). */
async function timeWrites(
  storage: Storage,
  day: string,
  members: number,
  writes: number,
): Promise<{ p50: number | null; p99: number | null; cpu: number | null }> {
  const latencies: number[] = [];
  const cpu = process.cpuUsage();
  for (let n = 0; n < writes; n++) {
    const t0 = performance.now();
    await storage.usageTotals.add(GUILD, day, job(n % members, n % 2 === 1));
    latencies.push(performance.now() - t0);
  }
  const used = process.cpuUsage(cpu);
  const s = summarize(latencies);
  return { p50: round(s.p50, 3), p99: round(s.p99, 3), cpu: round((used.user + used.system) / 1000 / writes, 3) };
}

async function usageWrites(url: string, p: RecordsParams): Promise<Figures> {
  const namespace = `imagine-bench-records-${process.pid}-${Date.now()}`;
  const backend = await openBackend(parseStorageUrl(url), { namespace, connectTimeoutMs: 5_000, logger });
  const storage = createStorage(backend, { defaults: { limit: 1_000_000, period: 'day' }, jobLeaseMs: 600_000, logger });
  const day = '2026-11-27';
  try {
    for (let i = 0; i < 5; i++) await storage.usageTotals.add(GUILD, day, job(i, false));
    const small = await timeWrites(storage, day, 5, p.writes);
    // The day grows to `members` (one in four refused), 16 writes in flight.
    let next = 5;
    const seed = async () => {
      while (next < p.members) {
        const i = next++;
        await storage.usageTotals.add(GUILD, day, job(i, i % 4 === 3));
      }
    };
    await Promise.all(Array.from({ length: 16 }, seed));
    const large = await timeWrites(storage, day, p.members, p.writes);
    const [totals] = await storage.usageTotals.days(GUILD, [day]);
    const counted = new Set([...Object.keys(totals?.members ?? {}), ...Object.keys(totals?.refusedMembers ?? {})]).size;
    return {
      writeP50At5Ms: small.p50,
      writeP99At5Ms: small.p99,
      writeCpuAt5Ms: small.cpu,
      [`writeP50At${p.members}Ms`]: large.p50,
      [`writeP99At${p.members}Ms`]: large.p99,
      [`writeCpuAt${p.members}Ms`]: large.cpu,
      membersCounted: counted,
    };
  } finally {
    await Promise.all([backend.kv.clear(), backend.ledger.clear()]).catch(() => undefined);
    await storage.close();
    if (url.startsWith('sqlite://')) rmSync(dirname(url.slice('sqlite://'.length)), { recursive: true, force: true });
  }
}

/** Counts the statements pg clients named `applicationName` (or `{applicationName}-listen`) send while it runs. */
function countStatements(applicationName: string): { count: () => number; stop: () => void } {
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  let n = 0;
  prototype.query = function (this: { connectionParameters: { application_name?: string } }, ...args: unknown[]) {
    if (this.connectionParameters.application_name?.startsWith(applicationName)) n += 1;
    return original.apply(this, args);
  };
  return { count: () => n, stop: () => (prototype.query = original) };
}

async function postgresSlots(url: string, p: RecordsParams['slots']): Promise<Figures> {
  const namespace = `imagine-bench-slots-${process.pid}-${Date.now()}`;
  const applicationName = `imagine-bench-slots-${process.pid}`;
  const limits = { global: p.held, perMember: 1 };
  const open = async () => {
    const slots = await openJobSlots(parseStorageUrl(url), { namespace, limits, holdMs: 60_000, connectTimeoutMs: 5_000, applicationName, logger });
    if (!slots) throw new Error('PostgreSQL offers no job slots');
    return slots;
  };
  const opened: ClusterJobSlots[] = [];
  const stop = new AbortController();
  // Every waiter listens to this one signal (a job's own signal in the bot).
  setMaxListeners(0, stop.signal);
  const counter = countStatements(applicationName);
  try {
    const holders = await open();
    opened.push(holders);
    const waiters = await open();
    opened.push(waiters);
    const held: SlotHold[] = [];
    for (let i = 0; i < p.held; i++) held.push(await holders.acquire(`held-${i}`, { signal: stop.signal }));
    // Waiters of other members, each acquiring again once it got in and released (the churn below).
    let waiting = 0;
    const waiter = async (i: number) => {
      for (let round = 0; !stop.signal.aborted; round++) {
        waiting++;
        const hold = await waiters.acquire(`waiting-${i}-${round}`, { signal: stop.signal }).finally(() => waiting--);
        held.push(hold);
      }
    };
    const running = Array.from({ length: p.waiting }, (_, i) => waiter(i).catch(() => undefined));
    while (waiting < p.waiting) await sleep(5);
    await sleep(1_000); // past the waiters' first back-offs
    const steadyFrom = counter.count();
    const t0 = performance.now();
    await sleep(p.durationMs);
    const steady = ((counter.count() - steadyFrom) / (performance.now() - t0)) * 1000;
    // Churn: a slot released every churnEveryMs; a waiter takes it and a new waiter queues.
    const churnFrom = counter.count();
    const t1 = performance.now();
    let released = 0;
    while (performance.now() - t1 < p.durationMs) {
      const hold = held.shift();
      if (hold) {
        await hold.release();
        released++;
      }
      await sleep(p.churnEveryMs);
    }
    const churn = ((counter.count() - churnFrom) / (performance.now() - t1)) * 1000;
    stop.abort(new Error('bench over'));
    await Promise.all(running);
    return {
      held: p.held,
      waiting: p.waiting,
      statementsPerSecondWaiting: round(steady, 0),
      statementsPerSecondWithChurn: round(churn, 0),
      releasesPerSecond: round((released / (performance.now() - t1)) * 1000, 1),
    };
  } finally {
    stop.abort(new Error('bench over'));
    counter.stop();
    await Promise.all(opened.map((slots) => slots.close()));
  }
}

export async function records(p: RecordsParams): Promise<RecordsResult> {
  const { redisUrl, postgresUrl, ...params } = p;
  const usage: RecordsResult['usageWrites'] = {};
  for (const [name, url] of [
    ['sqlite', sqliteUrl()],
    ['redis', redisUrl],
    ['postgres', postgresUrl],
  ] as const) {
    if (!url) {
      usage[name] = { skipped: `${name === 'redis' ? 'REDIS_URL' : 'POSTGRES_URL'} not set` };
      console.log(`[bench] records: ${name} skipped: ${usage[name].skipped}`);
      continue;
    }
    usage[name] = await usageWrites(url, p).catch((err: unknown) => ({ skipped: `could not run: ${err instanceof Error ? err.message : String(err)}` }));
  }
  let slots: RecordsResult['postgresSlots'];
  if (!postgresUrl) {
    slots = { skipped: 'POSTGRES_URL not set' };
    console.log('[bench] records: PostgreSQL slots skipped: POSTGRES_URL not set');
  } else
    slots = await postgresSlots(postgresUrl, p.slots).catch((err: unknown) => ({
      skipped: `could not run: ${err instanceof Error ? err.message : String(err)}`,
    }));
  return { params, usageWrites: usage, postgresSlots: slots };
}
