import { describe, expect, it } from 'vitest';
import { BotMetrics } from '../../src/ops/metrics.js';
import { observeGateway } from '../../src/ops/observed-gateway.js';
import { observeLedger } from '../../src/ops/observed-ledger.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import { type ImageGateway } from '../../src/ports/image-gateway.js';
import { type QuotaLedger } from '../../src/ports/quota-ledger.js';
import { type ReserveOutcome } from '../../src/core/quota.js';
import { finalResult } from '../support/image-stream.js';
import { imageStream } from '../../src/gateway/image-stream.js';

/** One sample's value from the exposition text, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('BotMetrics', () => {
  it('counts interactions, jobs, bytes and the queue depth under imagine_bot_* names', async () => {
    let depth = 3;
    const metrics = new BotMetrics({ queueDepth: () => depth, defaultMetrics: false });
    metrics.interaction('command');
    metrics.interaction('command');
    metrics.interaction('button');
    metrics.jobSettled('delivered');
    metrics.jobSettled('refused');
    metrics.uploaded(1000);
    metrics.downloaded(250);
    metrics.queueWaited(0.2);
    depth = 5;
    const { body, contentType } = await metrics.expose();
    expect(contentType).toContain('text/plain');
    expect(sample(body, 'imagine_bot_interactions_total{type="command"}')).toBe(2);
    expect(sample(body, 'imagine_bot_interactions_total{type="button"}')).toBe(1);
    expect(sample(body, 'imagine_bot_jobs_total{outcome="delivered"}')).toBe(1);
    expect(sample(body, 'imagine_bot_jobs_total{outcome="refused"}')).toBe(1);
    expect(sample(body, 'imagine_bot_uploaded_bytes_total')).toBe(1000);
    expect(sample(body, 'imagine_bot_downloaded_bytes_total')).toBe(250);
    expect(sample(body, 'imagine_bot_queue_depth')).toBe(5);
    expect(sample(body, 'imagine_bot_queue_wait_seconds_count')).toBe(1);
  });

  it('includes the default process metrics, event-loop lag among them', async () => {
    const { body } = await new BotMetrics({ queueDepth: () => 0 }).expose();
    expect(body).toContain('imagine_bot_nodejs_eventloop_lag_seconds');
    expect(body).toContain('imagine_bot_process_resident_memory_bytes');
  });

  it('times gateway calls and counts failures by their category', async () => {
    const metrics = new BotMetrics({ queueDepth: () => 0, defaultMetrics: false });
    let t = 0;
    const failing = new GatewayError('busy', { category: 'busy' });
    const gateway = {
      // Each call takes its time once it is iterated, as the gateway client's does (image-stream.ts).
      generate: () => imageStream(async () => ((t += 2000), { images: [], model: 'm', droppedParams: [] })),
      edit: () =>
        imageStream(async () => {
          t += 500;
          throw failing;
        }),
      listModels: () => Promise.resolve([]),
      cachedModels: () => [],
    } satisfies ImageGateway;
    const observed = observeGateway(gateway, metrics, () => t);
    await finalResult(observed.generate({ prompt: 'p' }));
    await expect(finalResult(observed.edit({ prompt: 'p', images: [] }))).rejects.toBe(failing);
    const { body } = await metrics.expose();
    expect(sample(body, 'imagine_bot_gateway_request_duration_seconds_sum{operation="generate"}')).toBe(2);
    expect(sample(body, 'imagine_bot_gateway_request_duration_seconds_sum{operation="edit"}')).toBe(0.5);
    expect(sample(body, 'imagine_bot_gateway_failures_total{category="busy"}')).toBe(1);
  });

  it('times ledger operations and counts refused reservations', async () => {
    const metrics = new BotMetrics({ queueDepth: () => 0, defaultMetrics: false });
    const refused: ReserveOutcome = { ok: false, status: { limit: 1, period: 'day', used: 1, reserved: 0, remaining: 0, resetsAt: 0, source: 'default' } };
    const unused = () => Promise.reject(new Error('not used here'));
    const ledger: QuotaLedger = {
      reserve: () => Promise.resolve(refused),
      commit: () => Promise.resolve(),
      renew: unused,
      refund: unused,
      status: unused,
      setLimit: unused,
      resetUsage: unused,
    };
    const observed = observeLedger(ledger, metrics, () => 0);
    await observed.reserve({ guildId: null, userId: 'u', roleIds: [] }, 'job', 1);
    await observed.commit('job', 1);
    const { body } = await metrics.expose();
    expect(sample(body, 'imagine_bot_quota_refusals_total')).toBe(1);
    expect(sample(body, 'imagine_bot_store_operation_duration_seconds_count{operation="reserve"}')).toBe(1);
    expect(sample(body, 'imagine_bot_store_operation_duration_seconds_count{operation="commit"}')).toBe(1);
  });
});
