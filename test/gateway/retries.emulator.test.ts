/**
 * The retry/no-retry matrix, Retry-After, the total deadline, agent timeouts and caller cancellation, over real
 * sockets. Waits between retries go through an injected sleep, so nothing here waits for real.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from 'undici';
import { createGatewayAgent } from '../../src/gateway/agent.js';
import { GatewayClient, type GatewayClientOptions } from '../../src/gateway/gateway-client.js';
import { startGatewayEmulator, type Behaviour, type GatewayEmulator } from '../emulators/gateway/index.js';
import { clientFor, silentLogger, failure } from './fixtures.js';
import { finalResult } from '../support/image-stream.js';

let gw: GatewayEmulator;
const agents: Agent[] = [];

async function setup(extra: Partial<GatewayClientOptions> = {}): Promise<{ client: GatewayClient; waits: number[] }> {
  gw = await startGatewayEmulator();
  const made = clientFor(gw, extra);
  agents.push(made.agent);
  return made;
}

afterEach(async () => {
  expect(gw.specViolations).toEqual([]);
  await Promise.all(agents.splice(0).map((a) => a.close()));
  await gw.close();
});

describe('retried: nothing can have been generated', () => {
  it.each<[string, Behaviour]>([
    ['429 rate limited', { type: 'error', preset: 'rate_limited' }],
    ['429 rate limited (zh)', { type: 'error', preset: 'rate_limited', lang: 'zh' }],
    ['429 with an empty body', { type: 'error', preset: 'rate_limited_empty' }],
    ['429 saturated', { type: 'error', preset: 'saturated', lang: 'zh' }],
    ['502 bad gateway', { type: 'error', preset: 'bad_gateway_502' }],
    ['503 unavailable', { type: 'error', preset: 'unavailable_503' }],
  ])('retries %s with backoff and the same idempotency key', async (_name, behaviour) => {
    const { client, waits } = await setup();
    gw.enqueue(behaviour, behaviour);
    const result = await finalResult(client.generate({ prompt: 'p' }));
    expect(result.images).toHaveLength(1);
    const keys = gw.imageRequests().map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    // random() = 0: no jitter, so the backoff is exactly 0.5 s then 1 s.
    expect(waits).toEqual([500, 1000]);
  });

  it('gives up after two retries and reports the last failure', async () => {
    const { client } = await setup();
    gw.enqueue(
      { type: 'error', preset: 'rate_limited_empty' },
      { type: 'error', preset: 'rate_limited_empty' },
      { type: 'error', preset: 'rate_limited_empty' },
    );
    expect(await failure(finalResult(client.generate({ prompt: 'p' })))).toMatchObject({ category: 'busy', status: 429 });
    expect(gw.imageRequests()).toHaveLength(3);
  });

  it('uses a new idempotency key for the next logical request', async () => {
    const { client } = await setup();
    await finalResult(client.generate({ prompt: 'p' }));
    await finalResult(client.generate({ prompt: 'p' }));
    const [a, b] = gw.imageRequests().map((r) => r.headers['idempotency-key']);
    expect(a).not.toBe(b);
  });

  it('honours Retry-After in seconds', async () => {
    const { client, waits } = await setup();
    gw.enqueue({ type: 'error', preset: 'rate_limited', retryAfter: '3' });
    await finalResult(client.generate({ prompt: 'p' }));
    expect(waits).toEqual([3000]);
  });

  it('honours Retry-After as an HTTP date against the injected clock', async () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    const { client, waits } = await setup({ clock: { now: () => now } });
    gw.enqueue({ type: 'error', preset: 'rate_limited_empty', retryAfter: new Date(now + 7_000).toUTCString() });
    await finalResult(client.generate({ prompt: 'p' }));
    expect(waits).toEqual([7000]);
  });

  it('caps Retry-After', async () => {
    const { client, waits } = await setup({ retryAfterCapMs: 5_000 });
    gw.enqueue({ type: 'error', preset: 'rate_limited', retryAfter: '600' });
    await finalResult(client.generate({ prompt: 'p' }));
    expect(waits).toEqual([5000]);
  });

  it('does not wait past the deadline for a retry', async () => {
    const { client, waits } = await setup({ deadlineMs: 10_000 });
    gw.enqueue({ type: 'error', preset: 'rate_limited', retryAfter: '20' });
    expect(await failure(finalResult(client.generate({ prompt: 'p' })))).toMatchObject({ category: 'busy' });
    expect(waits).toEqual([]);
    expect(gw.imageRequests()).toHaveLength(1);
  });

  it('retries a refused connection, which never reached the gateway', async () => {
    gw = await startGatewayEmulator();
    const closed = await startGatewayEmulator();
    const baseUrl = closed.baseUrl;
    await closed.close();
    const made = clientFor(gw, { baseUrl });
    agents.push(made.agent);
    expect(await failure(finalResult(made.client.generate({ prompt: 'p' })))).toMatchObject({ category: 'gateway_failure', code: 'ECONNREFUSED' });
    expect(made.waits).toEqual([500, 1000]);
  });
});

describe('not retried: the gateway may have generated and billed', () => {
  it.each<[string, Behaviour, string]>([
    ['504', { type: 'error', preset: 'gateway_timeout_504' }, 'timed_out'],
    ["Cloudflare's 524", { type: 'error', preset: 'cloudflare_524' }, 'timed_out'],
    ["a plain origin's 521", { type: 'error', preset: 'origin_521' }, 'gateway_failure'],
    ["a plain origin's 522", { type: 'error', preset: 'origin_522' }, 'gateway_failure'],
    ["a plain origin's 523", { type: 'error', preset: 'origin_523' }, 'gateway_failure'],
    ['408', { type: 'error', preset: 'request_timeout_408' }, 'timed_out'],
    ['500 do_request_failed', { type: 'error', preset: 'do_request_failed', lang: 'zh' }, 'timed_out'],
    ['500', { type: 'error', preset: 'server_error' }, 'gateway_failure'],
    ['a reset after the request was sent', { type: 'reset' }, 'gateway_failure'],
    ['a truncated body', { type: 'truncate' }, 'gateway_failure'],
    ['429 out of credit', { type: 'error', preset: 'openai_quota' }, 'balance_exhausted'],
    ['503 unknown model', { type: 'error', preset: 'unknown_model' }, 'unknown_model'],
    ['400 moderation', { type: 'error', preset: 'moderation' }, 'content_rejected'],
  ])('does not retry %s', async (_name, behaviour, category) => {
    const { client, waits } = await setup();
    gw.enqueue(behaviour);
    expect(await failure(finalResult(client.generate({ prompt: 'p' })))).toMatchObject({ category });
    expect(gw.imageRequests()).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});

describe('Cloudflare in front of the gateway', () => {
  it.each(['cloudflare_521', 'cloudflare_522', 'cloudflare_523'] as const)('retries its own %s once, though two retries are allowed', async (preset) => {
    const { client, waits } = await setup({ maxRetries: 2 });
    gw.enqueue({ type: 'error', preset }, { type: 'error', preset });
    expect(await failure(finalResult(client.generate({ prompt: 'p' })))).toMatchObject({ category: 'gateway_failure', proxy: 'cloudflare' });
    expect(gw.imageRequests()).toHaveLength(2);
    expect(waits).toEqual([500]);
  });

  it('delivers when the retry of its 522 gets through, with the same idempotency key', async () => {
    const { client } = await setup();
    gw.enqueue({ type: 'error', preset: 'cloudflare_522' });
    expect((await finalResult(client.generate({ prompt: 'p' }))).images).toHaveLength(1);
    const keys = gw.imageRequests().map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
  });

  it('still retries what else may be retried after its one retry', async () => {
    const { client } = await setup({ maxRetries: 2 });
    gw.enqueue({ type: 'error', preset: 'cloudflare_522' }, { type: 'error', preset: 'rate_limited' });
    expect((await finalResult(client.generate({ prompt: 'p' }))).images).toHaveLength(1);
    expect(gw.imageRequests()).toHaveLength(3);
  });

  it('does not retry its 522 when retries are off', async () => {
    const { client } = await setup({ maxRetries: 0 });
    gw.enqueue({ type: 'error', preset: 'cloudflare_522' });
    await failure(finalResult(client.generate({ prompt: 'p' })));
    expect(gw.imageRequests()).toHaveLength(1);
  });

  it('answers once, never again, when Cloudflare cuts a call that runs past its timeout (524)', async () => {
    gw = await startGatewayEmulator({ cloudflare: { timeoutMs: 50 } });
    const made = clientFor(gw, { maxRetries: 2 });
    agents.push(made.agent);
    gw.enqueue({ type: 'success', delayMs: 60_000 });
    expect(await failure(finalResult(made.client.generate({ prompt: 'p', quality: 'high' })))).toMatchObject({
      category: 'timed_out',
      status: 524,
      proxy: 'cloudflare',
    });
    expect(gw.imageRequests()).toHaveLength(1);
    expect(made.waits).toEqual([]);
  });
});

describe('deadline and cancellation', () => {
  it('fails with timed_out when the total deadline passes, without retrying', async () => {
    const { client } = await setup({ deadlineMs: 300 });
    const held = gw.hold();
    const err = await failure(finalResult(client.generate({ prompt: 'p' })));
    held.release();
    expect(err.category).toBe('timed_out');
    expect(gw.imageRequests()).toHaveLength(1);
  });

  it('fails with timed_out when the agent header timeout passes', async () => {
    gw = await startGatewayEmulator();
    const agent = createGatewayAgent({ connectTimeoutMs: 1_000, headersTimeoutMs: 200, bodyTimeoutMs: 200 });
    agents.push(agent);
    const client = new GatewayClient({
      baseUrl: gw.baseUrl,
      apiKey: gw.apiKey,
      dispatcher: agent,
      defaultModel: 'gpt-image-1',
      logger: silentLogger,
      sleep: () => Promise.resolve(),
    });
    const held = gw.hold();
    const err = await failure(finalResult(client.generate({ prompt: 'p' })));
    held.release();
    expect(err).toMatchObject({ category: 'timed_out', code: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(gw.imageRequests()).toHaveLength(1);
  });

  it('is cancelled by the caller while the gateway works', async () => {
    const { client } = await setup();
    const held = gw.hold();
    const controller = new AbortController();
    const pending = failure(finalResult(client.generate({ prompt: 'p' }, { signal: controller.signal })));
    await held.arrived;
    controller.abort();
    expect((await pending).category).toBe('cancelled');
    held.release();
  });

  it('sends nothing when the signal is already aborted', async () => {
    const { client } = await setup();
    expect((await failure(finalResult(client.generate({ prompt: 'p' }, { signal: AbortSignal.abort() })))).category).toBe('cancelled');
    expect(gw.requests).toEqual([]);
  });

  it('is cancelled during the wait before a retry', async () => {
    const controller = new AbortController();
    const { client } = await setup({
      sleep: async (_ms, signal) => {
        controller.abort();
        signal?.throwIfAborted();
      },
    });
    gw.enqueue({ type: 'error', preset: 'rate_limited_empty' });
    expect((await failure(finalResult(client.generate({ prompt: 'p' }, { signal: controller.signal })))).category).toBe('cancelled');
    expect(gw.imageRequests()).toHaveLength(1);
  });
});
