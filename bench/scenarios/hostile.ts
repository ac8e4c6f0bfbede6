/**
 * Memory under hostile load: `members` members at once each submit the worst inputs (bench/hostile-load.ts): an
 * edit whose references together pass what one job may hold, an edit with the most references that fit, read from a
 * slow CDN, and /imagine; the gateway answers every request with a url item of `linkBytes`. Peak RSS is the bot
 * process's own (kernel VmHWM after a reset once the bot is ready), printed against MEMORY_BUDGET_BYTES. Our bot
 * only: the baseline has no budget to compare.
 */
import type { HostileOutcome, HostileSpec } from '../hostile-load.js';
import { withSession } from '../session.js';
import { round } from '../stats.js';
import { ourEnv, sqliteUrl, type Figures } from './common.js';

export interface HostileParams extends HostileSpec {
  /** Bytes the gateway's url item serves for every answer. */
  linkBytes: number;
  budgetBytes: number;
  cdnBytesPerSecond: number;
}

export interface HostileResult {
  params: HostileParams;
  ours: Figures;
  sampleRefusal: string | undefined;
}

const MB = 1024 * 1024;

export async function hostile(p: HostileParams): Promise<HostileResult> {
  const env = ourEnv({ STORAGE_URL: sqliteUrl(), MEMORY_BUDGET_BYTES: String(p.budgetBytes), QUOTA_DEFAULT_LIMIT: '1000' });
  const session = {
    bot: 'ours' as const,
    env,
    discord: { cdnBytesPerSecond: p.cdnBytesPerSecond },
    gateway: { imageStyle: 'flat' as const, maxBodyBytes: 1024 * MB },
    // As every scenario that compares with idle: one ordinary job first, so idle RSS is that of a bot that has made
    // an image (its code paths loaded and compiled), not the first-use costs of the code the load runs.
    warm: [{ size: '1024x1024', n: 1 }],
    // Idle is measured after a full collection and the allocator's decay (bot-host.ts settleIdle), so it is the bot's
    // live idle: a warm-up's garbage still held would make the peak over it look smaller than it is.
    botFlags: ['--expose-gc'],
  };
  return withSession(session, async (s) => {
    await s.gateway.call('enqueue', {
      behaviours: Array.from({ length: p.members * 3 }, () => ({ type: 'success', urlItems: true, urlImageBytes: p.linkBytes })),
    });
    await s.bot.call('settleIdle', { ms: 1_500 });
    await s.resetStats();
    const outcome = await s.discord.call<HostileOutcome>('hostile', p);
    const st = await s.stats();
    return {
      params: p,
      sampleRefusal: outcome.sampleRefusal,
      ours: {
        peakRssMB: round(st.peakRss / MB),
        idleRssMB: round(st.rssAtReset / MB),
        budgetMB: round(p.budgetBytes / MB),
        peakOverIdleMB: round((st.peakRss - st.rssAtReset) / MB),
        peakArrayBuffersMB: round(st.peakArrayBuffers / MB),
        eventLoopMaxMs: round(st.eventLoopMaxMs),
        requests: outcome.requests,
        delivered: outcome.delivered,
        refused: outcome.refused,
        unsettled: outcome.unsettled,
        declaredMB: round(outcome.declaredBytes / MB),
        cdnFetchedMB: round(outcome.cdnBytes / MB),
      },
    };
  });
}
