/**
 * Start-up (issue 28): the compiled bot as `npm start` runs it (`node <OUR_BOT_FLAGS> dist/cli.js`, built first when
 * dist/ is older than src/), started `starts` times one after another against the emulators. Figures: the time from
 * spawn to the 'bot ready' log line (logged in, commands in sync), and the resident size once it has sat idle for
 * `idleMs` after that (VmRSS of the process), medians over the starts. Our bot only.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { EmulatorAddresses } from '../emulator-host.js';
import { ensureBuilt } from '../compiled-bot.js';
import { HostProcess } from '../ipc.js';
import { OUR_BOT_FLAGS } from '../session.js';
import { round, summarize } from '../stats.js';
import { sqliteUrl, type Figures } from './common.js';

export interface StartupParams {
  starts: number;
  /** Idle time after 'bot ready' before the resident size is read. */
  idleMs: number;
}

export interface StartupResult {
  params: StartupParams;
  ours: Figures;
}

const repo = fileURLToPath(new URL('../..', import.meta.url));
const MB = 1024 * 1024;

function vmRss(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/** One start: ms from spawn to 'bot ready', and VmRSS after `idleMs` idle. */
async function startOnce(env: Record<string, string>, idleMs: number): Promise<{ readyMs: number; idleRss: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [...OUR_BOT_FLAGS, 'dist/cli.js'], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    const readyMs = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('"msg":"bot ready"')) resolve(performance.now() - t0);
      });
      child.once('exit', (code) => reject(new Error(`bot exited (${code}) before it was ready:\n${output.slice(-2000)}`)));
    });
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    return { readyMs, idleRss: vmRss(child.pid ?? 0) };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  }
}

export async function startup(p: StartupParams): Promise<StartupResult> {
  ensureBuilt();
  const discord = HostProcess.start('./emulator-host.ts');
  const gateway = HostProcess.start('./emulator-host.ts');
  try {
    const [d, g] = await Promise.all([
      discord.call<Partial<EmulatorAddresses>>('start', { discord: true }),
      gateway.call<Partial<EmulatorAddresses>>('start', { gateway: { imageStyle: 'textured' } }),
    ]);
    const a = { ...d, ...g } as EmulatorAddresses;
    const env = {
      PATH: process.env['PATH'] ?? '',
      DISCORD_TOKEN: a.discordToken,
      DISCORD_API_URL: a.discordApiUrl,
      DISCORD_CDN_HOSTS: a.cdnHost,
      GATEWAY_BASE_URL: a.gatewayBaseUrl,
      GATEWAY_API_KEY: a.gatewayApiKey,
      LOG_LEVEL: 'info',
      STORAGE_URL: sqliteUrl(),
    };
    const runs: { readyMs: number; idleRss: number }[] = [];
    for (let i = 0; i < p.starts; i++) runs.push(await startOnce(env, p.idleMs));
    const rss = summarize(runs.map((r) => r.idleRss / MB));
    const ready = summarize(runs.map((r) => r.readyMs));
    return {
      params: p,
      ours: {
        idleRssMedianMB: round(rss.p50),
        idleRssMaxMB: round(rss.max),
        readyMedianMs: round(ready.p50, 0),
        readyMaxMs: round(ready.max, 0),
        starts: runs.length,
      },
    };
  } finally {
    await Promise.all([discord.stop(), gateway.stop()]);
  }
}
