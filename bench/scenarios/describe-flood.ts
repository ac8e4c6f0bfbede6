/**
 * Describe flood (issue 28): `floodMembers` members keep describing a large image (each first fires a burst of
 * describes at once, then one after another as fast as they settle; the vision model answers after `visionDelayMs`)
 * while another member runs edits one after another. The figure is the edits' end-to-end time with the flood
 * against the same edits without it (first phase, same bot), and the bot's peak RSS during the flood. Our bot only:
 * the baseline has no describe.
 */
import type { DescribeFloodOutcome, DescribeFloodSpec } from '../describe-flood-load.js';
import { withSession } from '../session.js';
import { round, summarize } from '../stats.js';
import { ourEnv, sqliteUrl, type Figures } from './common.js';

export interface DescribeFloodParams extends Omit<DescribeFloodSpec, 'flood'> {
  visionDelayMs: number;
  editDelayMs: number;
}

export interface DescribeFloodResult {
  params: DescribeFloodParams;
  ours: Figures;
}

const MB = 1024 * 1024;

export async function describeFlood(p: DescribeFloodParams): Promise<DescribeFloodResult> {
  // No cooldown: each flooding member keeps one describe in flight, the most the bot lets a member hold.
  const env = ourEnv({ STORAGE_URL: sqliteUrl(), VISION_MODEL: 'gpt-4o-mini', DESCRIBE_COOLDOWN_SECONDS: '0' });
  const session = { bot: 'ours' as const, env, gateway: { imageStyle: 'textured' as const, delayMs: p.editDelayMs } };
  return withSession(session, async (s) => {
    const run = (flood: boolean) => s.discord.call<DescribeFloodOutcome>('describeFlood', { ...p, flood });
    const alone = await run(false);
    await s.gateway.call('enqueueChat', { behaviours: Array.from({ length: 2_000 }, () => ({ type: 'success', delayMs: p.visionDelayMs })) });
    await s.resetStats();
    const flooded = await run(true);
    const st = await s.stats();
    const p50 = (ms: (number | null)[]) => round(summarize(ms.filter((v): v is number => v !== null)).p50);
    const aloneP50 = p50(alone.editMs);
    const floodedP50 = p50(flooded.editMs);
    return {
      params: p,
      ours: {
        editP50AloneMs: aloneP50,
        editP50FloodedMs: floodedP50,
        editP99FloodedMs: round(summarize(flooded.editMs.filter((v): v is number => v !== null)).p99),
        editFloodedRatio: aloneP50 && floodedP50 !== null ? round(floodedP50 / aloneP50, 2) : null,
        editsUndelivered: [...alone.editMs, ...flooded.editMs].filter((v) => v === null).length,
        describesAnswered: flooded.describesAnswered,
        describesRefused: flooded.describesRefused,
        describesUnsettled: flooded.describesUnsettled,
        imageMB: round(flooded.imageBytes / MB),
        peakRssMB: round(st.peakRss / MB),
        idleRssMB: round(st.rssAtReset / MB),
        peakOverIdleMB: round((st.peakRss - st.rssAtReset) / MB),
        peakArrayBuffersMB: round(st.peakArrayBuffers / MB),
        eventLoopMaxMs: round(st.eventLoopMaxMs),
      },
    };
  });
}
