/**
 * Failure injection and gateway resilience: 429 retried by discord.js, 5xx, bot auth, unknown routes, a wrong
 * IDENTIFY token, RESUME with replay after disconnectClient() and op 7 RECONNECT.
 */
import type { Interaction } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { connectClient, type HarnessedClient } from './client-harness.js';
import { type DiscordEmulator, startDiscordEmulator } from './index.js';

let emulator: DiscordEmulator;
let harness: HarnessedClient;

beforeAll(async () => {
  emulator = await startDiscordEmulator({ log: false });
  harness = await connectClient(emulator);
});

afterAll(async () => {
  await (harness as HarnessedClient | undefined)?.destroy();
  await (emulator as DiscordEmulator | undefined)?.close();
});

/** The bot defers every slash command; `deferred(id)` resolves once deferReply() resolved in the bot. */
function deferEverything(): { deferred(id: string): Promise<void> } {
  const resolvers = new Map<string, () => void>();
  const promises = new Map<string, Promise<void>>();
  const entry = (id: string): Promise<void> => {
    let promise = promises.get(id);
    if (!promise) {
      promise = new Promise<void>((resolve) => resolvers.set(id, resolve));
      promises.set(id, promise);
    }
    return promise;
  };
  harness.onInteraction(async (interaction: Interaction) => {
    if (!interaction.isChatInputCommand()) return;
    await interaction.deferReply();
    void entry(interaction.id);
    resolvers.get(interaction.id)?.();
  });
  return { deferred: entry };
}

const slash = () => emulator.slash('imagine', [{ name: 'prompt', type: 3, value: 'a cat' }], { user: emulator.fixtures.member });

describe('failure injection', () => {
  it('sends 429 with Retry-After and X-RateLimit-* headers, which discord.js waits out and retries transparently', async () => {
    const bot = deferEverything();
    emulator.failNext({ method: 'POST', path: /\/callback$/ }, { status: 429, retryAfter: 0.05 });
    const h = slash();
    await h.waitForAck();
    await bot.deferred(h.id);
    const attempts = emulator.requests.filter((r) => r.path.startsWith(`/interactions/${h.id}/`));
    expect(attempts.map((r) => r.status)).toEqual([429, 204]);
    expect(h.acks).toEqual([expect.objectContaining({ type: 5, status: 204 })]);
  });

  it('shapes an injected 429 like Discord: Retry-After, X-RateLimit-* and a RatelimitedResponse body', async () => {
    emulator.failNext({ method: 'GET', path: /^\/gateway\/bot$/ }, { status: 429, retryAfter: 0.5 });
    const res = await fetch(`${emulator.apiUrl}/v10/gateway/bot`, { headers: { authorization: `Bot ${emulator.token}` } });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('0.5');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(res.headers.get('x-ratelimit-reset-after')).toBe('0.5');
    expect(res.headers.get('x-ratelimit-scope')).toBe('user');
    expect(await res.json()).toEqual({ message: 'You are being rate limited.', retry_after: 0.5, global: false });
  });

  it('returns injected 5xx responses (retried by discord.js) and stops after `times`', async () => {
    const bot = deferEverything();
    emulator.failNext({ path: /\/callback$/ }, { status: 502 }, 2);
    const h = slash();
    await bot.deferred(h.id);
    const attempts = emulator.requests.filter((r) => r.path.startsWith(`/interactions/${h.id}/`));
    expect(attempts.map((r) => r.status)).toEqual([502, 502, 204]);
  });

  it('drops a connection on request: the bot sees a network error and the interaction stays unacknowledged', async () => {
    let failure: unknown;
    let settled!: () => void;
    const done = new Promise<void>((resolve) => (settled = resolve));
    harness.onInteraction(async (interaction: Interaction) => {
      if (!interaction.isChatInputCommand()) return;
      // @discordjs/rest retries only timeouts and ECONNRESET; a dropped socket surfaces to the caller.
      failure = await interaction.deferReply().then(
        () => undefined,
        (err: unknown) => err,
      );
      await harness.client.rest.post(`/interactions/${interaction.id}/${interaction.token}/callback`, { body: { type: 5 }, auth: false });
      settled();
    });
    emulator.failNext({ method: 'POST', path: /\/callback$/ }, { status: 0, dropConnection: true });
    const h = slash();
    await done;
    expect(failure).toBeInstanceOf(Error);
    const attempts = emulator.requests.filter((r) => r.path.startsWith(`/interactions/${h.id}/`));
    expect(attempts.map((r) => r.status)).toEqual([0, 204]);
    expect(h.acks).toEqual([expect.objectContaining({ status: 204 })]);
  });
});

describe('REST auth and routing', () => {
  it('requires the bot token on bot routes and answers unknown routes with 404 code 0', async () => {
    const get = async (path: string, token?: string) => {
      const res = await fetch(`${emulator.apiUrl}/v10${path}`, token === undefined ? {} : { headers: { authorization: `Bot ${token}` } });
      return { status: res.status, body: await res.json() };
    };
    expect(await get('/gateway/bot', 'wrong')).toMatchObject({ status: 401 });
    expect(await get('/gateway/bot')).toMatchObject({ status: 401 });
    expect(await get('/gateway/bot', emulator.token)).toMatchObject({
      status: 200,
      body: { url: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\/gateway$/) as string },
    });
    expect(await get('/no/such/route', emulator.token)).toEqual({ status: 404, body: { code: 0, message: '404: Not Found' } });
  });

  it('closes the gateway with 4004 when IDENTIFY carries a wrong token', async () => {
    const ws = new WebSocket(`ws://${emulator.cdnHost}/gateway?v=10&encoding=json`);
    ws.on('message', (data) => {
      if ((JSON.parse((data as Buffer).toString()) as { op: number }).op === 10)
        ws.send(JSON.stringify({ op: 2, d: { token: 'wrong', intents: 1, properties: {} } }));
    });
    const code = await new Promise<number>((resolve) => ws.on('close', resolve));
    expect(code).toBe(4004);
  });
});

describe('gateway resilience', () => {
  it('replays dispatches missed while disconnected once the client RESUMEs', async () => {
    const bot = deferEverything();
    const resumesBefore = emulator.gatewayStats.resumes;
    emulator.disconnectClient();
    const h = slash(); // queued: the client is away
    await emulator.whenResumed();
    await bot.deferred(h.id);
    expect(emulator.gatewayStats.resumes).toBe(resumesBefore + 1);
    expect(emulator.gatewayStats.identifies).toBe(1);
    expect(h.acks).toEqual([expect.objectContaining({ status: 204 })]);
  });

  it('makes the client resume after op 7 RECONNECT', async () => {
    const bot = deferEverything();
    const resumesBefore = emulator.gatewayStats.resumes;
    emulator.sendReconnect();
    await emulator.whenResumed();
    const h = slash();
    await bot.deferred(h.id);
    expect(emulator.gatewayStats.resumes).toBe(resumesBefore + 1);
    expect(emulator.specViolations).toEqual([]);
  });

  it('makes the client IDENTIFY a new session after op 9 INVALID_SESSION', async () => {
    const bot = deferEverything();
    const identifiesBefore = emulator.gatewayStats.identifies;
    emulator.sendInvalidSession();
    await emulator.whenReady();
    expect(emulator.gatewayStats.identifies).toBe(identifiesBefore + 1);
    const h = slash();
    await bot.deferred(h.id);
    expect(h.acks).toEqual([expect.objectContaining({ status: 204 })]);
  });
});
