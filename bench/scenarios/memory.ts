/**
 * Memory under load: `jobs` /imagine in flight at once, each answered with four 1536x1024 PNGs after `delayMs`.
 * Peak RSS is the bot process's own (kernel VmHWM after a reset once the bot is ready; emulators run elsewhere),
 * peak heap and Buffer memory are sampled every 20 ms, event-loop delay is perf_hooks.monitorEventLoopDelay.
 */
import type { BotKind } from '../bot-host.js';
import { withSession } from '../session.js';
import { round } from '../stats.js';
import { compare, completed, latency, ourEnv, sqliteUrl, type Compared, type Figures } from './common.js';

export interface MemoryParams {
  jobs: number;
  delayMs: number;
  spreadMs: number;
}

export interface MemoryResult extends Compared {
  params: MemoryParams;
}

const MB = 1024 * 1024;

async function once(kind: BotKind, p: MemoryParams): Promise<Figures> {
  const env = ourEnv({ STORAGE_URL: sqliteUrl(), MAX_CONCURRENT_JOBS: String(p.jobs), MAX_RUNNING_PER_MEMBER: '1' });
  return withSession({ bot: kind, env, gateway: { imageStyle: 'textured', delayMs: p.delayMs }, warm: [{ size: '1536x1024', n: 4 }] }, async (s) => {
    await s.resetStats();
    const samples = await s.load({ count: p.jobs, members: p.jobs, spreadMs: p.spreadMs, sequential: false, size: '1536x1024', n: 4, timeoutMs: 90_000 });
    const st = await s.stats();
    return {
      peakRssMB: round(st.peakRss / MB),
      idleRssMB: round(st.rssAtReset / MB),
      peakHeapMB: round(st.peakHeapUsed / MB),
      peakArrayBuffersMB: round(st.peakArrayBuffers / MB),
      eventLoopP99Ms: round(st.eventLoopP99Ms),
      eventLoopMaxMs: round(st.eventLoopMaxMs),
      completed: completed(samples),
      ...latency(
        samples.map((x) => x.final),
        'endToEnd',
      ),
    };
  });
}

export async function memory(p: MemoryParams): Promise<MemoryResult> {
  const baseline = await once('baseline', p);
  const ours = await once('ours', p);
  return { params: p, ...compare(ours, baseline) };
}
