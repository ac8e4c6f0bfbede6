/**
 * Hostile SVG answers (issue 28): `hostile` members at once ask for an SVG and the gateway answers each with one of
 * the documents (the 4096x4096 turbulence, the 65 KB data: PNG declaring 20000x20000, and documents within
 * every cap that still run into the time limit); once the bot holds them all, `others` members ask for ordinary
 * PNGs. Meanwhile a probe in the bot's process looks localhost up one lookup after another (dns.lookup runs on
 * libuv's thread pool, the pool sharp's pipelines use): the slowest lookup is the figure. Peak RSS is the bot
 * process's own (VmHWM) and, apart, its render children's (sampled). Our bot only.
 */
import type { DnsProbe } from '../bot-host.js';
import { withSession } from '../session.js';
import { round } from '../stats.js';
import { hostileSvgs, type SvgLoadOutcome } from '../svg-load.js';
import { REALISTIC_MODELS } from '../../test/emulators/gateway/index.js';
import { ourEnv, sqliteUrl, type Figures } from './common.js';

export interface SvgParams {
  hostile: number;
  others: number;
  /** SVG_RENDER_TIMEOUT_SECONDS. */
  timeoutSeconds: number;
}

export interface SvgResult {
  params: SvgParams;
  ours: Figures;
}

const MB = 1024 * 1024;

export async function svg(p: SvgParams): Promise<SvgResult> {
  const env = ourEnv({ STORAGE_URL: sqliteUrl(), QUOTA_DEFAULT_LIMIT: '1000', SVG_RENDER_TIMEOUT_SECONDS: String(p.timeoutSeconds) });
  const timeoutMs = 60_000 + p.hostile * p.timeoutSeconds * 2_000;
  return withSession({ bot: 'ours', env, gateway: { models: REALISTIC_MODELS } }, async (s) => {
    const answers = hostileSvgs(p.hostile).map((bytes) => ({
      type: 'raw',
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ created: 1, data: [{ b64_json: bytes.toString('base64') }] }),
    }));
    await s.gateway.call('enqueue', { behaviours: answers });
    await s.resetStats();
    await s.bot.call('dnsProbeStart');
    await s.discord.call('svgHostile', { members: p.hostile, timeoutMs });
    // The other members' jobs start once every hostile answer has been taken (the gateway answers in order).
    while ((await s.gateway.call<number>('imageRequests')) < p.hostile) await new Promise((resolve) => setTimeout(resolve, 20));
    const outcome = await s.discord.call<SvgLoadOutcome>('svgOthers', { members: p.hostile, others: p.others, timeoutMs });
    const dns = await s.bot.call<DnsProbe>('dnsProbeStop');
    const st = await s.stats();
    return {
      params: p,
      ours: {
        dnsLookups: dns.lookups,
        dnsP50Ms: round(dns.p50Ms),
        dnsP99Ms: round(dns.p99Ms),
        dnsMaxMs: round(dns.maxMs),
        peakRssMB: round(st.peakRss / MB),
        idleRssMB: round(st.rssAtReset / MB),
        peakOverIdleMB: round((st.peakRss - st.rssAtReset) / MB),
        peakRenderChildrenRssMB: round(st.peakChildrenRss / MB),
        eventLoopP99Ms: round(st.eventLoopP99Ms),
        // A lookup is timed on the event loop: a stall of the loop shows in both.
        eventLoopMaxMs: round(st.eventLoopMaxMs),
        ...outcome,
      },
    };
  });
}
