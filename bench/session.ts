/**
 * One measured session: a Discord emulator process, a gateway emulator process and a bot process (ours or the
 * baseline), started fresh and closed at the end.
 */
import type { DiscordEmulatorOptions } from '../test/emulators/discord/types.js';
import type { GatewayEmulatorOptions } from '../test/emulators/gateway/index.js';
import type { BotKind, BotStats } from './bot-host.js';
import type { EmulatorAddresses, InteractionSample, LoadSpec } from './emulator-host.js';
import { ensureBuilt } from './compiled-bot.js';
import { allocatorEnv } from './allocator.js';
import { plainHost } from './host-build.js';
import { HostProcess } from './ipc.js';
import { performance } from 'node:perf_hooks';

const trace = (text: string) => process.env['BENCH_TRACE'] && console.error(`[session] ${text}`);

export interface Session {
  addresses: EmulatorAddresses;
  discord: HostProcess;
  gateway: HostProcess;
  bot: HostProcess;
  load(spec: LoadSpec): Promise<InteractionSample[]>;
  resetStats(): Promise<void>;
  stats(): Promise<BotStats>;
}

export interface SessionOptions {
  gateway: GatewayEmulatorOptions;
  /** Options of the Discord emulator (a slow CDN, say). */
  discord?: DiscordEmulatorOptions | undefined;
  bot: BotKind;
  env?: Record<string, string> | undefined;
  /** Image shapes to request once through the bot before `body` (the emulator renders and caches them, the bot warms up). */
  warm?: { size: string; n: number }[] | undefined;
  /** Extra Node flags of the bot process (the soak's --expose-gc, for its forced collections). */
  botFlags?: string[] | undefined;
}

// The gateway emulator holds every in-flight answer as base64 JSON (16 MB each with four 1536x1024 PNGs).
const EMULATOR_FLAGS = ['--max-old-space-size=8192'];
/** Node flags our bot runs with, as under `npm start` and in the Docker image; the baseline gets Node's defaults. */
export const OUR_BOT_FLAGS = ['--heap-growing-percent=200', '--max-semi-space-size=8', '--flush-baseline-code', '--expose-gc'];
/** Quiet time between the warm-up and the measured load, for both bots. */
const SETTLE_AFTER_WARM_UP_MS = 500;

/** Runs `body` in a fresh session and always closes every process. */
export async function withSession<T>(options: SessionOptions, body: (s: Session) => Promise<T>): Promise<T> {
  if (options.bot === 'ours') ensureBuilt();
  // BENCH_BOT_FLAGS / BENCH_EMULATOR_FLAGS: extra node flags for those processes, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof'.
  const extra = (name: string) => (process.env[name] ?? '').split(' ').filter(Boolean);
  const discord = HostProcess.start('./emulator-host.ts', [...EMULATOR_FLAGS, ...extra('BENCH_EMULATOR_FLAGS')]);
  const gateway = HostProcess.start('./emulator-host.ts', [...EMULATOR_FLAGS, ...extra('BENCH_EMULATOR_FLAGS')]);
  const bot = HostProcess.start(
    plainHost('./bot-host.ts'),
    [...(options.bot === 'ours' ? OUR_BOT_FLAGS : []), ...(options.botFlags ?? []), ...extra('BENCH_BOT_FLAGS')],
    { plain: true, env: allocatorEnv() },
  );
  try {
    const [d, g] = await Promise.all([
      discord.call<Partial<EmulatorAddresses>>('start', { discord: options.discord ?? true }),
      gateway.call<Partial<EmulatorAddresses>>('start', { gateway: options.gateway }),
    ]);
    const addresses = { ...d, ...g } as EmulatorAddresses;
    const t0 = performance.now();
    await bot.call('start', { kind: options.bot, addresses, env: options.env ?? {} });
    await discord.call('whenReady');
    trace(`${options.bot} bot ready in ${Math.round(performance.now() - t0)} ms`);
    for (const shape of options.warm ?? []) {
      const [sample] = await discord.call<InteractionSample[]>('load', { count: 1, members: 1, spreadMs: 0, sequential: true, timeoutMs: 60_000, ...shape });
      if (sample?.final == null) throw new Error(`warm-up ${shape.n} × ${shape.size} got no final edit`);
    }
    // Measuring starts from an idle bot: the warm-up job's own tail (its quota commit and archive record, the
    // collection of its garbage) otherwise lands on the first interactions of a burst.
    if (options.warm?.length) await new Promise((resolve) => setTimeout(resolve, SETTLE_AFTER_WARM_UP_MS));
    const session: Session = {
      addresses,
      discord,
      gateway,
      bot,
      load: (spec) => discord.call<InteractionSample[]>('load', spec),
      resetStats: async () => {
        await bot.call('resetStats');
      },
      stats: () => bot.call<BotStats>('stats'),
    };
    return await body(session);
  } finally {
    const t0 = performance.now();
    await bot.stop(30_000);
    await Promise.all([discord.stop(), gateway.stop()]);
    trace(`${options.bot} session closed in ${Math.round(performance.now() - t0)} ms`);
  }
}
