/**
 * Soak (issue 28): `jobs` mixed jobs through one bot process, in ten rounds of a tenth each (bench/soak-load.ts:
 * /imagine, /edit, Vary, Zoom out, /describe, sizes the bot refuses; before each round the gateway is told to fail
 * or refuse the first few image requests). After each round the bot is probed after a forced full collection: live
 * heap (and the compiled code in it) and listeners at once, resident size and libuv handles 1.5 s later (the
 * allocator's decay; the timers of the jobs just finished gone). Figures compare the last tenth with the first; the
 * event-loop delay is over the whole soak. Our bot only.
 */
import type { BotProbe } from '../bot-host.js';
import type { SoakRoundOutcome } from '../soak-load.js';
import { withSession } from '../session.js';
import { round } from '../stats.js';
import type { Behaviour } from '../../test/emulators/gateway/types.js';
import { ourEnv, sqliteUrl, type Figures } from './common.js';

export interface SoakParams {
  jobs: number;
  concurrency: number;
  members: number;
  /** Gateway failures and refusals queued before each round (each half of them). */
  gatewayFaultsPerRound: number;
}

export interface SoakResult {
  params: SoakParams;
  ours: Figures;
  /** The probe after each tenth. */
  tenths: {
    rssMB: number | null;
    heapMB: number | null;
    heapTotalMB: number | null;
    externalMB: number | null;
    rssAnonMB: number | null;
    handles: number;
    listeners: number;
    delivered: number;
    refused: number;
    unsettled: number;
    /** Of the live heap, V8's compiled code. */
    codeMB: number | null;
    /** Handles right after the round, and by type 1.5 s later (`handles` is their count). */
    handlesAtOnce: number;
    handlesByType: Record<string, number>;
  }[];
}

const MB = 1024 * 1024;
const ROUNDS = 10;
const FAILURES: Behaviour[] = [{ type: 'error', preset: 'server_error' }, { type: 'reset' }, { type: 'error', preset: 'bad_gateway_502' }];
const REFUSALS: Behaviour[] = [
  { type: 'error', preset: 'moderation' },
  { type: 'error', preset: 'content_policy' },
];

const count = (byType: Record<string, number>) => Object.values(byType).reduce((a, b) => a + b, 0);
/** Handles the bot keeps: counted once the timers of the jobs just finished have gone (bot-host.ts, soakProbe). */
const handleCount = (p: BotProbe) => count(p.settledHandles);
const growth = (first: number, last: number) => round(((last - first) / first) * 100, 1);

export async function soak(p: SoakParams): Promise<SoakResult> {
  const env = ourEnv({
    STORAGE_URL: sqliteUrl(),
    VISION_MODEL: 'gpt-4o-mini',
    DESCRIBE_COOLDOWN_SECONDS: '0',
    MODERATION_STRIKES: '0',
    MAX_CONCURRENT_JOBS: String(p.concurrency),
    MAX_RUNNING_PER_MEMBER: String(p.concurrency),
  });
  const session = {
    bot: 'ours' as const,
    env,
    botFlags: ['--expose-gc'],
    gateway: { imageStyle: 'flat' as const, delayMs: 0 },
    warm: [{ size: '1024x1024', n: 1 }],
  };
  return withSession(session, async (s) => {
    await s.resetStats();
    const perRound = Math.ceil(p.jobs / ROUNDS);
    const probes: BotProbe[] = [];
    const outcomes: SoakRoundOutcome[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const faults = Array.from({ length: p.gatewayFaultsPerRound }, (_, k): Behaviour => {
        const list = k % 2 === 0 ? FAILURES : REFUSALS;
        return list[(i + k) % list.length] ?? { type: 'reset' };
      });
      await s.gateway.call('enqueue', { behaviours: faults });
      outcomes.push(
        await s.discord.call<SoakRoundOutcome>('soakRound', {
          jobs: perRound,
          concurrency: p.concurrency,
          first: i * perRound,
          timeoutMs: 60_000,
          members: p.members,
        }),
      );
      probes.push(await s.bot.call<BotProbe>('soakProbe', { ms: 1_500 }));
    }
    const st = await s.stats();
    const first = probes[0];
    const last = probes.at(-1);
    if (!first || !last) throw new Error('soak: no probe');
    const sum = (key: 'delivered' | 'refused' | 'unsettled') => outcomes.reduce((a, o) => a + o[key], 0);
    const heapPerJobBytes = (last.heapUsed - first.heapUsed) / (perRound * (ROUNDS - 1));
    return {
      params: p,
      ours: {
        jobs: perRound * ROUNDS,
        delivered: sum('delivered'),
        refused: sum('refused'),
        unsettled: sum('unsettled'),
        rssFirstTenthMB: round(first.rss / MB),
        rssLastTenthMB: round(last.rss / MB),
        rssGrowthPercent: growth(first.rss, last.rss),
        heapFirstTenthMB: round(first.heapUsed / MB),
        heapLastTenthMB: round(last.heapUsed / MB),
        heapGrowthPercent: growth(first.heapUsed, last.heapUsed),
        heapGrowthPerJobBytes: round(heapPerJobBytes, 0),
        handlesFirstTenth: handleCount(first),
        handlesLastTenth: handleCount(last),
        handlesGrowth: handleCount(last) - handleCount(first),
        listenersFirstTenth: first.listeners,
        listenersLastTenth: last.listeners,
        listenersGrowth: last.listeners - first.listeners,
        eventLoopP99Ms: round(st.eventLoopP99Ms),
        eventLoopMaxMs: round(st.eventLoopMaxMs),
      },
      tenths: probes.map((probe, i) => ({
        rssMB: round(probe.rss / MB),
        heapMB: round(probe.heapUsed / MB),
        heapTotalMB: round(probe.heapTotal / MB),
        externalMB: round(probe.external / MB),
        rssAnonMB: round(probe.rssAnon / MB),
        handles: handleCount(probe),
        listeners: probe.listeners,
        delivered: outcomes[i]?.delivered ?? 0,
        refused: outcomes[i]?.refused ?? 0,
        unsettled: outcomes[i]?.unsettled ?? 0,
        codeMB: round(probe.code / MB, 2),
        handlesAtOnce: count(probe.handles),
        handlesByType: probe.settledHandles,
      })),
    };
  });
}
