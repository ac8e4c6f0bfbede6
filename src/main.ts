/**
 * The composition root: configuration → logger → the rooms (storage, gateway, ops, Discord, service, commands), each
 * built by its own factory from its part of the configuration → login → running; and the shutdown. `npm start` runs
 * src/cli.ts, which validates the configuration and calls {@link runBot}; tests call {@link startBot} with their own.
 */
import type { Client, REST } from 'discord.js';
import type { DestinationStream, Logger } from 'pino';
import { buildCommands } from './commands/build-commands.js';
import { promptFeaturesOf, promptModelsOf } from './commands/prompt-help-options.js';
import { configWarnings, type Config } from './config.js';
import { buildCharts } from './charts/build-charts.js';
import { buildDiscord } from './discord/build-discord.js';
import { buildGateway } from './gateway/build-gateway.js';
import { InteractionIntake } from './discord/interaction-intake.js';
import { createLogger } from './logger.js';
import { buildOps } from './ops/build-ops.js';
import { runUntilStopped } from './process-lifecycle.js';
import { buildService } from './service/build-service.js';
import type { LeaseTimers } from './service/lease-renewal.js';
import { systemClock, type Clock } from './ports/clock.js';
import { buildStorage } from './storage/build-storage.js';

/** Test seams; production passes nothing. */
export interface BotOverrides {
  clock?: Clock | undefined;
  logDestination?: DestinationStream | undefined;
  /** Timers of the quota lease renewals; the global (unref'd) timers by default. */
  leaseTimers?: LeaseTimers | undefined;
  /** The storage's key namespace and connection name, so a test on a shared database keeps to its own. */
  storageNames?: { namespace: string; applicationName: string } | undefined;
}

/** A running bot. */
export interface RunningBot {
  client: Client;
  logger: Logger;
  /** The REST clients (discord.js's and the interaction webhooks' one), whose rate-limit handlers tests count. */
  rests: readonly REST[];
  /** The port the health server (HTTP_PORT) listens on; undefined when it is off. */
  httpPort: number | undefined;
  /** Stops taking work, lets in-flight jobs finish (up to the grace period), closes everything. */
  stop(): Promise<void>;
}

/** Starts the bot and resolves once it is logged in and its commands are in sync. */
export async function startBot(config: Config, overrides: BotOverrides = {}): Promise<RunningBot> {
  const rooms = await buildRooms(config, overrides);
  const { logger, storage, gateway, discord, service } = rooms;
  try {
    await rooms.commands.sync(discord.client.rest, await discord.login());
  } catch (err) {
    // destroy, not close: a Discord that never answers would keep close() waiting for its request.
    await Promise.allSettled([discord.disconnect(), discord.close(true), gateway.close(false), storage.close()]);
    throw err;
  }
  await service.abandoned.start();
  const { client } = discord;
  logger.info({ user: client.user?.tag, guilds: client.guilds.cache.size, shards: client.ws.shards.map((shard) => shard.id) }, 'bot ready');
  await gateway.check.start();
  const bot: RunningBot = { client, logger, rests: discord.rests, httpPort: undefined, stop: () => shutdown(rooms, config.SHUTDOWN_GRACE_MS) };
  bot.httpPort = await rooms.ops.serve({ discord, storage, catalogue: gateway.client }).catch(async (err: unknown) => {
    await bot.stop();
    throw err;
  });
  return bot;
}

/** Each room from its part of the configuration, given the rooms it uses; and the intake that routes interactions. */
async function buildRooms(config: Config, overrides: BotOverrides) {
  const clock = overrides.clock ?? systemClock;
  const logger = createLogger({ level: config.LOG_LEVEL, pretty: config.LOG_PRETTY, destination: overrides.logDestination });
  for (const warning of configWarnings(config)) logger.warn(warning);
  const storage = await buildStorage(config, { clock, logger, names: overrides.storageNames });
  const gateway = buildGateway(config, { clock, logger });
  // The queue's depth is read at each scrape, so only once the service below is built.
  const ops = await buildOps(config, { clock, logger, queueDepth: () => service.queue.waiting });
  const discord = buildDiscord(config, { clock, logger, dispatcher: gateway.dispatcher });
  const prompt = { ...promptModelsOf(config), enhance: promptFeaturesOf(config).enhance };
  const { renderer: charts } = buildCharts({ logger });
  const service = buildService(config, { clock, logger, leaseTimers: overrides.leaseTimers, storage, gateway, discord, ops, prompt, charts });
  const commands = buildCommands(config, { clock, logger, service, discord, gateway });
  const intake = new InteractionIntake({ client: discord.client, rests: discord.rests, route: commands.route, observe: ops.countInteraction });
  return { clock, logger, storage, gateway, ops, discord, service, commands, intake };
}

/** Stops taking work, lets in-flight jobs finish (up to `graceMs`), closes everything; once. */
async function shutdown(rooms: Awaited<ReturnType<typeof buildRooms>>, graceMs: number): Promise<void> {
  const { clock, logger, storage, gateway, ops, discord, service, intake } = rooms;
  if (!intake.stop()) return;
  logger.info({ inFlight: intake.inFlight }, 'shutting down');
  gateway.check.stop();
  await ops.close();
  // One deadline for all of it: running jobs are cancelled (and refunded) when it passes, and deliveries still
  // under way are not waited for beyond it.
  const deadline = clock.now() + graceMs;
  await service.queue.close(graceMs);
  const unfinished = await intake.settle(Math.max(0, deadline - clock.now()));
  if (unfinished > 0) logger.warn({ unfinished }, 'shutdown grace over; stopping with interactions still in progress');
  await service.abandoned.stop();
  // With every job settled, the journal has nothing left for another process to claim; otherwise it stays, and
  // the jobs still open are claimed (refunded, their members told) once this process's journal lapses.
  if (unfinished === 0) await storage.journal.retire().catch((err: unknown) => logger.warn({ err }, 'could not leave the job journal'));
  await discord.disconnect();
  // close() would wait for requests still open; past the deadline they are cut off.
  await Promise.allSettled([gateway.close(unfinished > 0), discord.close(unfinished > 0), storage.close()]);
  logger.info('shut down');
}

/**
 * Runs the bot until SIGTERM/SIGINT, an unhandled rejection or an uncaught exception, then shuts down gracefully.
 * Used by src/cli.ts (`npm start`).
 */
export function runBot(config: Config): Promise<void> {
  return runUntilStopped(() => startBot(config));
}
