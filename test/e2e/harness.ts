/**
 * End-to-end harness: the real bot (through src/main.ts's startBot, like `npm start`) against the Discord and
 * gateway emulators over real sockets. Logs are captured so tests can check what was (not) written.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { botProcessEnv } from './bot-process-env.js';
import { startBot, type BotOverrides, type RunningBot } from '../../src/main.js';
import type { LeaseTimers } from '../../src/service/lease-renewal.js';
import type { Clock } from '../../src/ports/clock.js';
import { startDiscordEmulator, type DiscordEmulator, type DiscordEmulatorOptions } from '../emulators/discord/index.js';
import { startGatewayEmulator, type GatewayEmulator, type GatewayEmulatorOptions } from '../emulators/gateway/index.js';

/** Options for {@link startHarness}. */
export interface HarnessOptions {
  /** Extra configuration (environment-style strings). */
  env?: Record<string, string> | undefined;
  gateway?: GatewayEmulatorOptions | undefined;
  discord?: DiscordEmulatorOptions | undefined;
  /** Use a SQLite file in a temp folder instead of memory:// (restart tests). */
  sqlite?: boolean | undefined;
  clock?: Clock | undefined;
  /** The bot's lease-renewal timers (BotOverrides.leaseTimers). */
  leaseTimers?: LeaseTimers | undefined;
  /** The storage's namespace and connection name, for a test on a shared database (see BotOverrides). */
  storageNames?: BotOverrides['storageNames'];
}

/** A running bot with its two emulators. */
export interface Harness {
  discord: DiscordEmulator;
  gateway: GatewayEmulator;
  bot: RunningBot;
  config: Config;
  /** Every log line the bot wrote (JSON). */
  logs: string[];
  /** Resolves with the first log entry (parsed) whose `msg` matches (or that `msg` accepts), already written or still to come. */
  waitForLog(msg: RegExp | string | ((entry: LogEntry) => boolean)): Promise<LogEntry>;
  /** Stops the bot and starts a new one on the same emulators and storage. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** Starts both emulators and the bot, and waits until the bot is ready. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  // The relay is served through Cloudflare, as many are (its headers on every answer, its 524 past 100 s); a test
  // turns that off with `gateway: { cloudflare: undefined }`.
  const [discord, gateway] = await Promise.all([
    startDiscordEmulator({ log: false, ...options.discord }),
    startGatewayEmulator({ cloudflare: {}, ...options.gateway }),
  ]);
  const dir = options.sqlite ? mkdtempSync(join(tmpdir(), 'imagine-e2e-')) : undefined;
  const config = loadConfig({
    ...botProcessEnv(discord, gateway, {}),
    STORAGE_URL: dir ? `sqlite://${join(dir, 'bot.sqlite')}` : 'memory://',
    GATEWAY_MAX_RETRIES: '0',
    LOG_LEVEL: 'info',
    SHUTDOWN_GRACE_MS: '5000',
    ...options.env,
  });
  const logs: string[] = [];
  const waiters = new Set<(entry: LogEntry) => boolean>();
  const destination = {
    write: (line: string) => {
      logs.push(line);
      const entry = JSON.parse(line) as LogEntry;
      for (const waiter of waiters) if (waiter(entry)) waiters.delete(waiter);
    },
  };
  const waitForLog = (msg: RegExp | string | ((entry: LogEntry) => boolean)) =>
    new Promise<LogEntry>((resolve) => {
      const matches = (entry: LogEntry) => (typeof msg === 'string' ? entry.msg === msg : typeof msg === 'function' ? msg(entry) : msg.test(entry.msg));
      const seen = logs.map((line) => JSON.parse(line) as LogEntry).find(matches);
      if (seen) {
        resolve(seen);
        return;
      }
      waiters.add((entry) => (matches(entry) ? (resolve(entry), true) : false));
    });
  const start = () =>
    startBot(config, { clock: options.clock, leaseTimers: options.leaseTimers, logDestination: destination, storageNames: options.storageNames });
  let bot = await start();
  const harness: Harness = {
    discord,
    gateway,
    config,
    logs,
    waitForLog,
    get bot() {
      return bot;
    },
    async restart() {
      await bot.stop();
      bot = await start();
    },
    async close() {
      await bot.stop();
      await Promise.all([discord.close(), gateway.close()]);
      if (dir) rmSync(dir, { recursive: true, force: true });
      // Every end-to-end file that uses the harness fails when its logs held a secret or a bulky line.
      const problems = logProblems(logs, [discord.token, gateway.apiKey, ...discord.interactionTokens()]);
      if (problems.length > 0) throw new Error(`the bot's logs broke the rules:\n${problems.join('\n')}`);
    },
  };
  return harness;
}

/** Longest log line allowed (16 KiB): a line longer than that carries bulk, such as a request body. */
const MAX_LOG_LINE = 16 * 1024;

/** What is wrong with `logs`: lines holding one of `secrets`, and lines over {@link MAX_LOG_LINE} bytes. */
export function logProblems(logs: readonly string[], secrets: readonly string[]): string[] {
  const problems: string[] = [];
  for (const [index, line] of logs.entries()) {
    const size = Buffer.byteLength(line);
    if (size > MAX_LOG_LINE) problems.push(`line ${index + 1} is ${size} bytes: ${line.slice(0, 200)}…`);
    const leaked = secrets.filter((secret) => secret.length > 0 && line.includes(secret));
    if (leaked.length > 0) problems.push(`line ${index + 1} holds ${leaked.length} secret(s): ${line.slice(0, 200).replaceAll(leaked[0] ?? '', '<secret>')}…`);
  }
  return problems;
}

/** One pino line as the bot writes it. */
export interface LogEntry {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A minimal /imagine option list. */
export function imagineOptions(prompt: string, extra: { name: string; type: number; value: string | number }[] = []) {
  return [{ name: 'prompt', type: 3, value: prompt }, ...extra];
}
