/**
 * Child process running one bot (ours through src/main.ts's startBot, or the baseline) with nothing else in it, so
 * its peak RSS (the kernel's VmHWM), heap and event-loop delay are the bot's own. Driven by bench/ipc.ts commands.
 */
import { lookup } from 'node:dns/promises';
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import type { RunningBot } from '../src/main.js';
import { compiledBot } from './compiled-bot.js';
import { startBaselineBot } from './baseline-bot.js';
import type { EmulatorAddresses } from './emulator-host.js';
import { serve } from './ipc.js';

export type BotKind = 'ours' | 'baseline';

export interface BotStartArgs {
  kind: BotKind;
  addresses: EmulatorAddresses;
  /** Extra configuration of our bot (environment-style strings). */
  env: Record<string, string>;
}

/** Resource figures since the last resetStats. */
export interface BotStats {
  /** Kernel high-water mark of resident memory (VmHWM, reset by clear_refs), bytes; sampled peak if unavailable. */
  peakRss: number;
  rssAtReset: number;
  peakHeapUsed: number;
  /** Peak of Buffer/ArrayBuffer memory outside the V8 heap. */
  peakArrayBuffers: number;
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
  eventLoopMeanMs: number;
  logLines: number;
  /** Sampled peak of the resident memory of the bot's child processes together (its SVG renders), bytes. */
  peakChildrenRss: number;
}

/** dns.lookup latencies measured by dnsProbeStart/dnsProbeStop. */
export interface DnsProbe {
  lookups: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** What the soak scenario reads between its rounds (bench/scenarios/soak.ts). */
export interface BotProbe {
  /** Resident size and live heap after a forced full collection (the bot runs with --expose-gc), bytes. */
  rss: number;
  heapUsed: number;
  /** V8's heap as committed (live or not), Buffers and ArrayBuffers, and the anonymous (malloc and mmap) part of RSS, bytes. */
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  rssAnon: number;
  /** libuv handles and requests that keep the process alive (sockets, timers, ...), by type, at once. */
  handles: Record<string, number>;
  /** Listeners on the process, the client, its WebSocket manager and both REST clients. */
  listeners: number;
  /** Of the live heap, V8's compiled code (its code space), bytes. */
  code: number;
  /** The handles after the quiet `ms`, by type: the timers of jobs just finished have gone by then. */
  settledHandles: Record<string, number>;
}

let stop: (() => Promise<void>) | undefined;
let running: RunningBot | undefined;
let histogram: IntervalHistogram | undefined;
let sampler: NodeJS.Timeout | undefined;
let peaks = { rss: 0, heap: 0, arrayBuffers: 0, rssAtReset: 0, hwmResettable: false, children: 0 };
let logLines = 0;

function sample(): void {
  const m = process.memoryUsage();
  peaks.rss = Math.max(peaks.rss, m.rss);
  peaks.heap = Math.max(peaks.heap, m.heapUsed);
  peaks.arrayBuffers = Math.max(peaks.arrayBuffers, m.arrayBuffers);
  peaks.children = Math.max(peaks.children, childrenRss());
}

/** Resident memory of this process's children now (Linux; 0 elsewhere). */
function childrenRss(): number {
  try {
    const pids = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    let total = 0;
    for (const pid of pids) {
      try {
        const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        total += match ? Number(match[1]) * 1024 : 0;
      } catch {
        // Gone meanwhile.
      }
    }
    return total;
  } catch {
    return 0;
  }
}

let probe: { stopped: boolean; latencies: number[]; done: Promise<void> } | undefined;

/** Looks up localhost one lookup after another (each on libuv's thread pool, as every dns.lookup) until stopped. */
function dnsProbeStart(): void {
  const state = { stopped: false, latencies: [] as number[], done: Promise.resolve() };
  state.done = (async () => {
    while (!state.stopped) {
      const t0 = performance.now();
      await lookup('localhost');
      state.latencies.push(performance.now() - t0);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  probe = state;
}

async function dnsProbeStop(): Promise<DnsProbe> {
  const state = probe;
  if (!state) throw new Error('no probe running');
  state.stopped = true;
  await state.done;
  const sorted = [...state.latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { lookups: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: sorted.at(-1) ?? Number.NaN };
}

function vmHwm(): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

function resetStats(): void {
  let hwmResettable = false;
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    hwmResettable = true;
  } catch {
    // Not Linux or not permitted: the sampled peak is used instead.
  }
  peaks = { rss: 0, heap: 0, arrayBuffers: 0, rssAtReset: process.memoryUsage.rss(), hwmResettable, children: 0 };
  sample();
  histogram?.disable();
  histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  clearInterval(sampler);
  sampler = setInterval(sample, 20);
}

function stats(): BotStats {
  sample();
  const hwm = peaks.hwmResettable ? vmHwm() : undefined;
  const h = histogram;
  return {
    peakRss: Math.max(hwm ?? 0, peaks.rss),
    rssAtReset: peaks.rssAtReset,
    peakHeapUsed: peaks.heap,
    peakArrayBuffers: peaks.arrayBuffers,
    eventLoopP99Ms: h ? h.percentile(99) / 1e6 : Number.NaN,
    eventLoopMaxMs: h ? h.max / 1e6 : Number.NaN,
    eventLoopMeanMs: h ? h.mean / 1e6 : Number.NaN,
    logLines,
    peakChildrenRss: peaks.children,
  };
}

async function start(args: BotStartArgs): Promise<void> {
  const a = args.addresses;
  if (args.kind === 'baseline') {
    const bot = await startBaselineBot({
      discordApiUrl: a.discordApiUrl,
      discordToken: a.discordToken,
      gatewayBaseUrl: a.gatewayBaseUrl,
      gatewayApiKey: a.gatewayApiKey,
    });
    stop = () => bot.stop();
    return;
  }
  // The compiled bot, as npm start runs it (the orchestrator built dist/ first).
  const { main, config: configModule } = await compiledBot();
  const config = configModule.loadConfig({
    DISCORD_TOKEN: a.discordToken,
    DISCORD_API_URL: a.discordApiUrl,
    DISCORD_CDN_HOSTS: a.cdnHost,
    GATEWAY_BASE_URL: a.gatewayBaseUrl,
    GATEWAY_URL_HOSTS: new URL(a.gatewayBaseUrl).host,
    GATEWAY_API_KEY: a.gatewayApiKey,
    GATEWAY_MAX_RETRIES: '0',
    LOG_LEVEL: 'info',
    SHUTDOWN_GRACE_MS: '10000',
    ...args.env,
  });
  // Production logs go to stdout; here they are counted and dropped so the terminal stays readable (BENCH_BOT_LOG=1: to stderr).
  const show = process.env['BENCH_BOT_LOG'] === '1';
  const bot = await main.startBot(config, {
    logDestination: {
      write: (line: string) => {
        logLines++;
        if (show) process.stderr.write(line);
      },
    },
  });
  running = bot;
  stop = () => bot.stop();
}

function listenerCount(emitter: { eventNames(): (string | symbol)[]; listenerCount(name: string | symbol): number }): number {
  return emitter.eventNames().reduce((sum, name) => sum + emitter.listenerCount(name), 0);
}

/** RssAnon of /proc/self/status (Linux), bytes; 0 elsewhere. */
function rssAnon(): number {
  try {
    const kb = /RssAnon:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb === undefined ? 0 : Number(kb) * 1024;
  } catch {
    return 0;
  }
}

/**
 * A full collection (the bot runs with --expose-gc), then `ms` of quiet for the allocator to give freed pages back
 * (jemalloc's dirty_decay_ms is 1000): what follows measures from the bot's live idle, not from garbage it happens to hold.
 */
async function settleIdle({ ms }: { ms: number }): Promise<void> {
  collectAll('settleIdle');
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** A full collection now; `who` names the caller if the bot was not started with --expose-gc. */
function collectAll(who: string): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error(`${who} needs the bot process started with --expose-gc`);
  gc();
}

/** libuv handles and requests that keep the process alive, by type. */
function handlesByType(): Record<string, number> {
  const handles: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) handles[type] = (handles[type] ?? 0) + 1;
  return handles;
}

/**
 * The bot after a full collection: its live heap, handles and listeners at once; its resident size and handles after
 * `ms` of quiet for the allocator to give freed pages back (its decay is 1 s, bench/allocator.ts), as
 * {@link settleIdle}, so RSS is what the process keeps, not pages freed a moment ago, and the handles are those it
 * keeps, not the timers of jobs that have just finished.
 */
async function soakProbe({ ms }: { ms: number }): Promise<BotProbe> {
  collectAll('soakProbe');
  const m = process.memoryUsage();
  const code = getHeapSpaceStatistics().find((s) => s.space_name === 'code_space')?.space_used_size ?? 0;
  const handles = handlesByType();
  const emitters = running ? [running.client, running.client.ws, ...running.rests] : [];
  const listeners = [process, ...emitters].reduce((sum, e) => sum + listenerCount(e), 0);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return {
    code,
    settledHandles: handlesByType(),
    rss: process.memoryUsage.rss(),
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    rssAnon: rssAnon(),
    handles,
    listeners,
  };
}

serve(
  {
    soakProbe,
    settleIdle,
    start,
    resetStats,
    stats,
    dnsProbeStart,
    dnsProbeStop,
  },
  async () => {
    clearInterval(sampler);
    histogram?.disable();
    await stop?.();
  },
);
