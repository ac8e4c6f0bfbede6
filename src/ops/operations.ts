/**
 * The operator's side of a running bot, built by build-ops.ts when HTTP_PORT is set: the metrics and the health server
 * whose readiness checks build-ops.ts names (over the parts main.ts passes in).
 */
import type pino from 'pino';
import { startHealthServer, type HealthServer } from './health-server.js';
import type { BotMetrics } from './metrics.js';
import { checkReadiness, type ReadinessCheck } from './readiness.js';

/** How long one readiness check may take before it counts as failed (a store that hangs is not ready). */
export const READINESS_TIMEOUT_MS = 1_000;

/** Options of {@link startOperations}. */
export interface OperationsOptions {
  host: string;
  port: number;
  metrics: BotMetrics;
  checks: readonly ReadinessCheck[];
  logger: pino.Logger;
}

/** Starts the health server over `metrics` and `checks`. */
export function startOperations(options: OperationsOptions): Promise<HealthServer> {
  return startHealthServer({
    host: options.host,
    port: options.port,
    ready: () => checkReadiness(options.checks, READINESS_TIMEOUT_MS),
    metrics: () => options.metrics.expose(),
    logger: options.logger,
  });
}

/** Ready while the last catalogue fetch is no older than one check interval plus one probe's time limit. */
export function catalogueIsFresh(fetchedAt: number | undefined, now: number, intervalMs: number, probeTimeoutMs: number): boolean {
  return fetchedAt !== undefined && now - fetchedAt <= intervalMs + probeTimeoutMs;
}
