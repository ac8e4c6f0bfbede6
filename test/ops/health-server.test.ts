import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startHealthServer, type HealthServer } from '../../src/ops/health-server.js';
import { checkReadiness, type ReadinessCheck } from '../../src/ops/readiness.js';

describe('the health server (real HTTP on a free port)', () => {
  let server: HealthServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const start = async (checks: ReadinessCheck[]) => {
    server = await startHealthServer({
      host: '127.0.0.1',
      port: 0,
      ready: () => checkReadiness(checks, 200),
      metrics: () => Promise.resolve({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: 'imagine_bot_up 1\n' }),
      logger: pino({ level: 'silent' }),
    });
    return `http://127.0.0.1:${server.port}`;
  };

  it('answers /healthz with 200 and /metrics with the exposition text', async () => {
    const base = await start([]);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('version=0.0.4');
    expect(await metrics.text()).toBe('imagine_bot_up 1\n');
    expect((await fetch(`${base}/other`)).status).toBe(404);
    expect((await fetch(`${base}/healthz`, { method: 'POST' })).status).toBe(405);
  });

  it('answers /readyz with 200 when every check passes', async () => {
    const base = await start([
      { name: 'discord', check: () => true },
      { name: 'store', check: () => Promise.resolve(true) },
    ]);
    const res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', checks: { discord: 'ok', store: 'ok' } });
  });

  it('answers /readyz with 503 naming the checks that failed, threw or did not answer in time', async () => {
    const base = await start([
      { name: 'discord', check: () => true },
      { name: 'store', check: () => new Promise<boolean>(() => undefined) },
      { name: 'gateway', check: () => false },
      { name: 'thrower', check: () => Promise.reject(new Error('down')) },
    ]);
    const res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'not ready', checks: { discord: 'ok', store: 'failed', gateway: 'failed', thrower: 'failed' } });
  });
});
