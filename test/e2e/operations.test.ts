/**
 * The operator's endpoints on the real bot (HTTP_PORT=0): after a scripted run, /metrics holds exactly the counts that
 * run produced; on Redis behind a proxy the test can stop, /readyz turns 503 naming the store while it is down and
 * 200 again once it is back.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionHandle } from '../emulators/discord/index.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { imagineOptions, startHarness, type Harness } from './harness.js';
import { ephemeralError, resultPost, settled } from './support.js';

/** One sample of the exposition text; 0 when the series is absent (a counter never incremented). */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

const get = (h: Harness, path: string) => fetch(`http://127.0.0.1:${h.bot.httpPort ?? 0}${path}`);

describe('the operator endpoints after a scripted run', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { HTTP_PORT: '0', QUOTA_DEFAULT_LIMIT: '2' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const imagine = async (prompt: string, user = h.discord.fixtures.member) => {
    const handle = h.discord.slash('imagine', imagineOptions(prompt), { user });
    await handle.waitFor(settled);
    return handle;
  };

  it('is alive and ready once the bot has started', async () => {
    expect((await get(h, '/healthz')).status).toBe(200);
    const ready = await get(h, '/readyz');
    expect(await ready.json()).toEqual({ status: 'ready', checks: { discord: 'ok', store: 'ok', gateway: 'ok' } });
    expect(ready.status).toBe(200);
  });

  it('counts exactly what two deliveries, a quota refusal and a gateway failure produced', async () => {
    const delivered: InteractionHandle[] = [await imagine('one'), await imagine('two')];
    expect(delivered.map((handle) => resultPost(handle) !== undefined)).toEqual([true, true]);
    expect(ephemeralError(await imagine('three'))).toContain('0 of 2 left');
    h.gateway.enqueue({ type: 'error', preset: 'server_error' });
    expect(ephemeralError(await imagine('broken', h.discord.fixtures.users.member2))).toContain('ran into a problem');

    const res = await get(h, '/metrics');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(sample(text, 'imagine_bot_interactions_total{type="command"}')).toBe(4);
    expect(sample(text, 'imagine_bot_jobs_total{outcome="delivered"}')).toBe(2);
    expect(sample(text, 'imagine_bot_jobs_total{outcome="refused"}')).toBe(1);
    expect(sample(text, 'imagine_bot_jobs_total{outcome="failed"}')).toBe(1);
    expect(sample(text, 'imagine_bot_jobs_total{outcome="cancelled"}')).toBe(0);
    expect(sample(text, 'imagine_bot_quota_refusals_total')).toBe(1);
    expect(sample(text, 'imagine_bot_gateway_request_duration_seconds_count{operation="generate"}')).toBe(3);
    expect(sample(text, 'imagine_bot_gateway_failures_total{category="gateway_failure"}')).toBe(1);
    expect(sample(text, 'imagine_bot_store_operation_duration_seconds_count{operation="reserve"}')).toBe(4);
    expect(sample(text, 'imagine_bot_store_operation_duration_seconds_count{operation="commit"}')).toBe(2);
    expect(sample(text, 'imagine_bot_queue_wait_seconds_count')).toBe(3);
    expect(sample(text, 'imagine_bot_queue_depth')).toBe(0);
    const posted = delivered.flatMap((handle) => handle.followUps.flatMap((post) => post.files)).reduce((sum, file) => sum + file.bytes.length, 0);
    expect(sample(text, 'imagine_bot_uploaded_bytes_total')).toBe(posted);
    expect(sample(text, 'imagine_bot_downloaded_bytes_total')).toBe(0);
    expect(text).toContain('imagine_bot_nodejs_eventloop_lag_seconds');
  });
});

const REDIS_URL = process.env['REDIS_URL'];
const TITLE = 'readiness while the Redis store is stopped';

describe.skipIf(REDIS_URL === undefined)(REDIS_URL === undefined ? `${TITLE}: skipped because REDIS_URL is not set` : TITLE, () => {
  let h: Harness;
  let proxy: TcpProxy;

  beforeAll(async () => {
    const redis = new URL(REDIS_URL ?? '');
    proxy = await TcpProxy.start({ host: redis.hostname, port: Number(redis.port || 6379) });
    const names = { namespace: `imagine-bot-test-${randomUUID()}`, applicationName: `imagine-bot-test-${randomUUID().slice(0, 8)}` };
    h = await startHarness({ env: { HTTP_PORT: '0', STORAGE_URL: `redis://127.0.0.1:${proxy.port}${redis.pathname}` }, storageNames: names });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
    await (proxy as TcpProxy | undefined)?.stop();
  });

  /** Asks /readyz until it answers `status` (each answer takes at most the readiness timeout). */
  const readyzUntil = async (status: number) => {
    for (;;) {
      const res = await get(h, '/readyz');
      const body: unknown = await res.json();
      if (res.status === status) return body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('turns 503 naming the store while it is stopped, and 200 once it is back', async () => {
    expect(await readyzUntil(200)).toMatchObject({ status: 'ready' });
    await proxy.stop();
    expect(await readyzUntil(503)).toEqual({ status: 'not ready', checks: { discord: 'ok', store: 'failed', gateway: 'ok' } });
    expect((await get(h, '/healthz')).status).toBe(200);
    await proxy.resume();
    expect(await readyzUntil(200)).toEqual({ status: 'ready', checks: { discord: 'ok', store: 'ok', gateway: 'ok' } });
  }, 30_000);
});
