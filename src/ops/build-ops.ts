/**
 * The operator's room, built from its part of the configuration: with HTTP_PORT, the Prometheus metrics (prom-client
 * imported only then, docs/benchmarks.md "Light at rest"), the wrappers that time the gateway and the ledger, and the
 * health server; without it, nothing is observed and nothing listens.
 */
import type { Interaction } from 'discord.js';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Clock } from '../ports/clock.js';
import type { ImageGateway } from '../ports/image-gateway.js';
import type { QuotaLedger } from '../ports/quota-ledger.js';
import type { HealthServer } from './health-server.js';
import { interactionKind } from './interaction-kind.js';
import type { BotMetrics } from './metrics.js';
import { observeGateway } from './observed-gateway.js';
import { observeLedger } from './observed-ledger.js';
import { catalogueIsFresh, READINESS_TIMEOUT_MS, startOperations } from './operations.js';

/** What the operator's room reads of the configuration. */
export type OpsConfig = Pick<Config, 'HTTP_PORT' | 'HTTP_HOST' | 'GATEWAY_CHECK_INTERVAL_MS' | 'GATEWAY_CONNECT_TIMEOUT_MS'>;

/** What readiness asks the other rooms (their parts, passed in by main.ts: src/ops imports no adapter). */
export interface ReadinessProbes {
  /** Whether the Discord connection is up. */
  discord: { ready: () => boolean };
  /** One cheap read of the store, rejecting after `timeoutMs`. */
  storage: { ping: (timeoutMs: number) => Promise<void> };
  /** When the gateway's model catalogue was last fetched. */
  catalogue: { catalogueFetchedAt: () => number | undefined };
}

/** The built operator's room. */
export interface Ops {
  /** The metrics, when HTTP_PORT is set (the service's JobMetrics port, and the downloads it counts). */
  metrics: BotMetrics | undefined;
  /** `gateway` with its image calls timed (as it is without metrics). */
  observeGateway: (gateway: ImageGateway) => ImageGateway;
  /** `ledger` with its operations timed and refusals counted (as it is without metrics). */
  observeLedger: (ledger: QuotaLedger) => QuotaLedger;
  /** Counts an interaction by its kind. */
  countInteraction: (interaction: Interaction) => void;
  /** Starts the health server over `probes` when HTTP_PORT is set, and resolves with the port it listens on; undefined otherwise. */
  serve: (probes: ReadinessProbes) => Promise<number | undefined>;
  /** Closes the health server, if it was started. */
  close: () => Promise<void>;
}

/** Builds the operator's room; `queueDepth` is read at each scrape. */
export async function buildOps(config: OpsConfig, parts: { clock: Clock; logger: Logger; queueDepth: () => number }): Promise<Ops> {
  const { clock, logger } = parts;
  const port = config.HTTP_PORT;
  // Metrics only when they can be scraped (HTTP_PORT); otherwise nothing is observed, and prom-client is not loaded.
  const metrics = port === undefined ? undefined : await createMetrics(parts.queueDepth);
  let health: HealthServer | undefined;
  const fresh = (fetchedAt: number | undefined) =>
    catalogueIsFresh(fetchedAt, clock.now(), config.GATEWAY_CHECK_INTERVAL_MS, config.GATEWAY_CONNECT_TIMEOUT_MS);
  return {
    metrics,
    observeGateway: (gateway) => (metrics ? observeGateway(gateway, metrics) : gateway),
    observeLedger: (ledger) => (metrics ? observeLedger(ledger, metrics) : ledger),
    countInteraction: (interaction) => metrics?.interaction(interactionKind(interaction)),
    serve: async (probes) => {
      if (!metrics || port === undefined) return undefined;
      const checks = [
        { name: 'discord', check: () => probes.discord.ready() },
        { name: 'store', check: () => probes.storage.ping(READINESS_TIMEOUT_MS).then(() => true) },
        { name: 'gateway', check: () => fresh(probes.catalogue.catalogueFetchedAt()) },
      ];
      health = await startOperations({ host: config.HTTP_HOST, port, metrics, checks, logger });
      return health.port;
    },
    close: async () => {
      await health?.close();
    },
  };
}

/** The Prometheus metrics, prom-client imported only now (docs/benchmarks.md, "Light at rest"). */
async function createMetrics(queueDepth: () => number): Promise<BotMetrics> {
  const { BotMetrics } = await import('./metrics.js');
  return new BotMetrics({ queueDepth });
}
