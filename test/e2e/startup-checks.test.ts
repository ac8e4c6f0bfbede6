/**
 * Start-up diagnoses: what the operator reads when the gateway or Discord is wrong, and that the bot keeps
 * running where it can (docs/operations.md "Troubleshooting" quotes these lines).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startBot } from '../../src/main.js';
import { startDiscordEmulator } from '../emulators/discord/index.js';
import { startHarness, type Harness, type LogEntry } from './harness.js';
import { ephemeralError, quotaText, settled } from './support.js';

const ERROR = 50;
const WARN = 40;
const INFO = 30;

/** A port nothing listens on any more. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A server that accepts connections and never answers. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function entries(h: Harness): LogEntry[] {
  return h.logs.map((line) => JSON.parse(line) as LogEntry);
}

describe('start-up check of the image gateway', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('logs an unreachable gateway with its host, warns about a base URL without /v1, and keeps serving with the "not available" message', async () => {
    const port = await closedPort();
    h = await startHarness({ env: { GATEWAY_BASE_URL: `http://127.0.0.1:${port}`, QUOTA_DEFAULT_LIMIT: '5' } });
    const logs = entries(h);
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: WARN,
        msg: `GATEWAY_BASE_URL (127.0.0.1:${port}) has no version segment such as /v1; most gateways expect one (some relays use other paths)`,
      }),
    );
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: ERROR,
        msg: `image gateway unreachable at 127.0.0.1:${port} (ECONNREFUSED): members are told image generation is not available until it recovers`,
      }),
    );
    const member = h.discord.fixtures.member;
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'a lighthouse' }], { user: member });
    await handle.waitFor(settled);
    expect(ephemeralError(handle)).toContain("Image generation isn't available right now");
    expect(await quotaText(h.discord, member)).toMatch(/5 of 5 images left/);
  });

  it('logs a refused key once, keeps checking, and says when the gateway answers again', async () => {
    h = await startHarness({ env: { GATEWAY_CHECK_INTERVAL_MS: '20' } });
    // The first start-up probe (inside startHarness) already passed; restart with two refusals queued.
    h.gateway.enqueueModels({ type: 'error', preset: 'invalid_key' }, { type: 'error', preset: 'invalid_key' });
    await h.restart();
    const host = new URL(h.gateway.baseUrl).host;
    const refused = `image gateway at ${host} refused the API key (HTTP 401): check GATEWAY_API_KEY`;
    expect(await h.waitForLog(refused)).toMatchObject({ level: ERROR });
    expect(await h.waitForLog(`image gateway at ${host} answers again`)).toMatchObject({ level: INFO });
    expect(entries(h).filter((e) => e.msg === refused)).toHaveLength(1);
    expect(h.gateway.requests.filter((r) => r.path === '/v1/models').length).toBeGreaterThanOrEqual(4);
  });

  it('logs a gateway that lists no image models', async () => {
    h = await startHarness({ gateway: { models: ['gpt-4o-mini', 'text-embedding-3-small'] } });
    const host = new URL(h.gateway.baseUrl).host;
    expect(entries(h)).toContainEqual(
      expect.objectContaining({
        level: ERROR,
        msg: `image gateway at ${host} lists no image models (it lists gpt-4o-mini, text-embedding-3-small): image commands will fail`,
      }),
    );
  });

  it('warns once about a DEFAULT_IMAGE_MODEL the gateway does not list, naming the ones it does, and uses the best of them', async () => {
    h = await startHarness({ gateway: { models: ['dall-e-3', 'gpt-image-2', 'gpt-4o-mini'] }, env: { DEFAULT_IMAGE_MODEL: 'gpt-image-1' } });
    const host = new URL(h.gateway.baseUrl).host;
    await imagine(h);
    expect(h.gateway.imageRequests().at(-1)?.json).toMatchObject({ model: 'gpt-image-2' });
    expect(entries(h).filter((e) => e.msg.startsWith('DEFAULT_IMAGE_MODEL'))).toEqual([
      expect.objectContaining({
        level: WARN,
        msg: `DEFAULT_IMAGE_MODEL gpt-image-1 is not listed by the gateway at ${host} (image models: gpt-image-2, dall-e-3): using gpt-image-2 instead`,
      }),
    ]);
  });

  it('uses the newest GPT image model the gateway lists when DEFAULT_IMAGE_MODEL is unset', async () => {
    h = await startHarness({ gateway: { models: ['dall-e-3', 'gpt-image-2'] } });
    const host = new URL(h.gateway.baseUrl).host;
    await imagine(h);
    expect(h.gateway.imageRequests().at(-1)?.json).toMatchObject({ model: 'gpt-image-2' });
    expect(entries(h)).toContainEqual(
      expect.objectContaining({
        level: INFO,
        msg: `default image model: gpt-image-2, the best the gateway at ${host} lists (set DEFAULT_IMAGE_MODEL to choose one)`,
      }),
    );
  });

  it('says when the model in use shuts down, in the log and in /models', async () => {
    h = await startHarness({
      gateway: { models: ['gpt-image-1.5', 'gpt-image-2'], shutdownDates: { 'gpt-image-1.5': '2099-12-01' } },
      env: { DEFAULT_IMAGE_MODEL: 'gpt-image-1.5' },
    });
    expect(entries(h)).toContainEqual(
      expect.objectContaining({
        level: WARN,
        msg: expect.stringMatching(/^default image model gpt-image-1\.5 shuts down on 2099-12-01 \(in \d+ days/) as string,
      }),
    );
    const models = h.discord.slash('models', [], { user: h.discord.fixtures.member });
    await models.waitFor((x) => x.edits.some((e) => e.status === 200));
    expect(String(models.edits.at(-1)?.payload?.content)).toContain('`gpt-image-1.5` (default) · shuts down <t:4099766400:D>');
  });

  it('logs a healthy gateway once at info level', async () => {
    h = await startHarness();
    const host = new URL(h.gateway.baseUrl).host;
    const lines = entries(h).filter((e) => e.msg.startsWith('image gateway'));
    expect(lines).toEqual([expect.objectContaining({ level: INFO, msg: `image gateway at ${host} is ready (4 image models, default gpt-image-2)` })]);
  });
});

/** One /imagine by a member, waited for until it settles. */
async function imagine(h: Harness): Promise<void> {
  const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'a lighthouse' }], { user: h.discord.fixtures.member });
  await handle.waitFor(settled);
}

describe('Discord start-up failures', () => {
  const base = { GATEWAY_BASE_URL: 'http://127.0.0.1:9/v1', GATEWAY_API_KEY: 'sk-never-used', STORAGE_URL: 'memory://', LOG_LEVEL: 'silent' };

  async function startError(env: Record<string, string>): Promise<Error> {
    const error = await startBot(loadConfig({ ...base, ...env })).then(
      () => new Error('the bot started'),
      (err: unknown) => err as Error,
    );
    return error;
  }

  it('names the Discord API URL and the timeout when Discord accepts the connection and never answers', async () => {
    const silent = await silentServer();
    try {
      const apiUrl = `http://127.0.0.1:${silent.port}/api`;
      const error = await startError({ DISCORD_TOKEN: 'some-token', DISCORD_API_URL: apiUrl, DISCORD_LOGIN_TIMEOUT_MS: '1000' });
      expect(error.message).toBe(`Discord API at ${apiUrl} did not answer within 1 s (DISCORD_LOGIN_TIMEOUT_MS)`);
    } finally {
      await silent.close();
    }
  });

  it('says which service refused the connection', async () => {
    const port = await closedPort();
    const apiUrl = `http://127.0.0.1:${port}/api`;
    const error = await startError({ DISCORD_TOKEN: 'some-token', DISCORD_API_URL: apiUrl });
    expect(error.message).toBe(`Discord API at ${apiUrl} refused the connection (ECONNREFUSED)`);
  });

  it('says the bot token was refused, without echoing it', async () => {
    const discord = await startDiscordEmulator({ log: false });
    try {
      const error = await startError({ DISCORD_TOKEN: 'wrong.token.value', DISCORD_API_URL: discord.apiUrl });
      expect(error.message).toBe(`Discord at ${discord.apiUrl} refused the bot token: check DISCORD_TOKEN (Bot tab of the developer portal)`);
      expect(error.message).not.toContain('wrong.token.value');
    } finally {
      await discord.close();
    }
  });

  it('npm start exits 1 with that one line', async () => {
    const silent = await silentServer();
    try {
      const repo = new URL('../..', import.meta.url).pathname;
      const apiUrl = `http://127.0.0.1:${silent.port}/api`;
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(join(repo, 'node_modules/.bin/tsx'), [join(repo, 'src/cli.ts')], {
          cwd: mkdtempSync(join(tmpdir(), 'imagine-login-')),
          env: { PATH: process.env['PATH'] ?? '', ...base, DISCORD_TOKEN: 'some-token', DISCORD_API_URL: apiUrl, DISCORD_LOGIN_TIMEOUT_MS: '1000' },
        });
        let stderr = '';
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('exit', (code) => resolve({ code, stderr }));
      });
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(`imagine-bot could not start: Discord API at ${apiUrl} did not answer within 1 s (DISCORD_LOGIN_TIMEOUT_MS)`);
    } finally {
      await silent.close();
    }
  });
});
