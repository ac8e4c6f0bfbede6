/**
 * The gateway emulator behind Cloudflare (`cloudflare` option): Cloudflare's headers on every answer, and its 524 in
 * place of an answer that has not begun within the proxy's timeout; streams and tasks are not cut.
 * (QuantumNous/new-api#4921: gpt-image-2 at high quality takes about 126 s, past Cloudflare's 100 s.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startGatewayEmulator, type GatewayEmulator, type GatewayEmulatorOptions } from './gateway/index.js';

let gateway: GatewayEmulator | undefined;

afterEach(async () => {
  expect(gateway?.specViolations ?? []).toEqual([]);
  await gateway?.close();
  gateway = undefined;
});

async function start(options: GatewayEmulatorOptions): Promise<GatewayEmulator> {
  gateway = await startGatewayEmulator(options);
  return gateway;
}

function generate(gw: GatewayEmulator, body: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${gw.baseUrl}/images/generations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-image-1', prompt: 'a lighthouse', ...body }),
  });
}

describe('gateway emulator behind Cloudflare', () => {
  it("adds Cloudflare's headers to the gateway's own answers, which keep their request id", async () => {
    const gw = await start({ cloudflare: {} });
    const res = await generate(gw);
    expect(res.status).toBe(200);
    expect(res.headers.get('server')).toBe('cloudflare');
    expect(res.headers.get('cf-ray')).toMatch(/^[0-9a-f]{16}-FRA$/);
    expect(res.headers.get('x-oneapi-request-id')).toBeTruthy();
    expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(1);
  });

  it('answers 524 in place of a plain answer that would begin after the timeout', async () => {
    const gw = await start({ cloudflare: { timeoutMs: 50 } });
    // A minute of work: only the cut can make the answer arrive while the test runs.
    gw.enqueue({ type: 'success', delayMs: 60_000 });
    const res = await generate(gw);
    expect(res.status).toBe(524);
    expect(res.headers.get('server')).toBe('cloudflare');
    expect(res.headers.get('x-oneapi-request-id')).toBeNull();
    const page = await res.text();
    expect(page).toContain('524: A timeout occurred');
    expect(page).toContain((res.headers.get('cf-ray') ?? '-').split('-')[0]);
  });

  it('cuts a slow error answer the same way, and lets a quick one through', async () => {
    const gw = await start({ cloudflare: { timeoutMs: 50 } });
    gw.enqueue({ type: 'error', preset: 'server_error', delayMs: 60_000 }, { type: 'error', preset: 'server_error', delayMs: 10 });
    expect((await generate(gw)).status).toBe(524);
    const quick = await generate(gw);
    expect(quick.status).toBe(500);
    expect(quick.headers.get('server')).toBe('cloudflare');
  });

  it('cuts a slow chat completion too', async () => {
    const gw = await start({ cloudflare: { timeoutMs: 50 } });
    gw.enqueueChat({ type: 'success', delayMs: 60_000 });
    const res = await fetch(`${gw.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect([res.status, res.headers.get('server')]).toEqual([524, 'cloudflare']);
  });

  it('does not cut a stream, whose headers leave at once', async () => {
    const gw = await start({ cloudflare: { timeoutMs: 50 } });
    gw.enqueue({ type: 'success', delayMs: 300 });
    const res = await generate(gw, { stream: true, partial_images: 1 });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(await res.text()).toContain('image_generation.completed');
  });

  it('does not cut a task, submitted at once and polled', async () => {
    const gw = await start({ cloudflare: { timeoutMs: 50 } });
    gw.enqueue({ type: 'success', asTask: 'tasks-api', taskPolls: 0 });
    const submitted = (await (await generate(gw)).json()) as { data: { task_id: string }[] };
    const poll = await fetch(`${gw.baseUrl}/tasks/${submitted.data[0]?.task_id ?? ''}`, { headers: { authorization: `Bearer ${gw.apiKey}` } });
    expect(poll.status).toBe(200);
    expect(poll.headers.get('cf-ray')).toBeTruthy();
    expect(((await poll.json()) as { data: { status: string } }).data.status).toBe('SUCCESS');
  });

  it('answers a slow request in full without Cloudflare in front, and without its headers', async () => {
    const gw = await start({});
    gw.enqueue({ type: 'success', delayMs: 100 });
    const res = await generate(gw);
    expect(res.status).toBe(200);
    expect([res.headers.get('server'), res.headers.get('cf-ray')]).toEqual([null, null]);
  });
});

describe("the 52x presets: Cloudflare's own answers and a plain origin's", () => {
  it.each([521, 522, 523] as const)('answers %s from Cloudflare with its page, and from a plain origin with JSON', async (status) => {
    const gw = await start({});
    gw.enqueue({ type: 'error', preset: `cloudflare_${status}` }, { type: 'error', preset: `origin_${status}` });
    const edge = await generate(gw);
    expect([edge.status, edge.headers.get('server'), edge.headers.get('x-oneapi-request-id')]).toEqual([status, 'cloudflare', null]);
    expect(edge.headers.get('cf-ray')).toBeTruthy();
    expect(await edge.text()).toContain(`Error code ${status}`);
    const origin = await generate(gw);
    expect([origin.status, origin.headers.get('server'), origin.headers.get('cf-ray')]).toEqual([status, null, null]);
    expect(((await origin.json()) as { error: { code: string } }).error.code).toBe('bad_response_status_code');
  });
});
