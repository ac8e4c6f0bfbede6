/**
 * The operator's HTTP listener (HTTP_PORT): `/healthz` (the process answers), `/readyz` (every readiness check passes;
 * 503 with the failed ones otherwise) and `/metrics` (Prometheus text). GET and HEAD only; nothing else is served.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pino from 'pino';
import type { ReadinessReport } from './readiness.js';

/** Options of {@link startHealthServer}. */
export interface HealthServerOptions {
  /** HTTP_HOST. */
  host: string;
  /** HTTP_PORT; 0 takes a free port (tests). */
  port: number;
  ready: () => Promise<ReadinessReport>;
  metrics: () => Promise<{ contentType: string; body: string }>;
  logger: pino.Logger;
}

/** A listening health server. */
export interface HealthServer {
  /** The port it listens on (the one chosen when HTTP_PORT was 0). */
  port: number;
  close(): Promise<void>;
}

/** Starts listening; rejects when the port cannot be bound. */
export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const log = options.logger.child({ module: 'health-server' });
  const server = createServer((req, res) => {
    answer(req, res, options).catch((err: unknown) => {
      log.error({ err, path: req.url }, 'health endpoint failed');
      if (res.headersSent) res.destroy();
      else res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  log.info({ host: options.host, port }, 'health server listening');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Scrapers keep connections alive; they must not hold the shutdown.
        server.closeAllConnections();
      }),
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, options: HealthServerOptions): Promise<void> {
  const [status, contentType, body] = await route(req, options);
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Status, content type and body for one request. */
async function route(req: IncomingMessage, options: HealthServerOptions): Promise<[number, string, string]> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return [405, 'text/plain', 'method not allowed\n'];
  switch (new URL(req.url ?? '/', 'http://localhost').pathname) {
    case '/healthz':
      return [200, 'application/json', JSON.stringify({ status: 'ok' })];
    case '/readyz': {
      const report = await options.ready();
      return [report.ready ? 200 : 503, 'application/json', JSON.stringify({ status: report.ready ? 'ready' : 'not ready', checks: report.checks })];
    }
    case '/metrics': {
      const { contentType, body } = await options.metrics();
      return [200, contentType, body];
    }
    default:
      return [404, 'text/plain', 'not found\n'];
  }
}
