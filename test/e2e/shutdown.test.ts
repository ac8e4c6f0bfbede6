import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDiscordEmulator, type DiscordEmulator } from '../emulators/discord/index.js';
import { startGatewayEmulator, type GatewayEmulator } from '../emulators/gateway/index.js';
import { botProcessEnv } from './bot-process-env.js';
import { startHarness, type Harness } from './harness.js';
import { ephemeralError, resultPost, settled } from './support.js';

describe('graceful shutdown', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it('finishes in-flight work, refuses new work while stopping, then starts again cleanly', async () => {
    const held = h.gateway.hold();
    const inFlight = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'finish me' }], { user: h.discord.fixtures.member });
    await held.arrived;
    const stopping = h.bot.stop();
    const late = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'too late' }], { user: h.discord.fixtures.users.member2 });
    await late.waitFor(settled);
    expect(ephemeralError(late)).toContain('restarting');
    held.release();
    await stopping;
    expect(resultPost(inFlight)).toBeDefined();
    expect(h.gateway.imageRequests().map((r) => r.json?.['prompt'])).not.toContain('too late');
    await h.restart();
    const again = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'after restart' }], { user: h.discord.fixtures.member });
    await again.waitFor((x) => resultPost(x) !== undefined);
  });
});

describe('the shutdown deadline', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { SHUTDOWN_GRACE_MS: '200', PROGRESS_INTERVAL_MS: '600000' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it('is one deadline for everything: a delivery still under way is not waited for beyond SHUTDOWN_GRACE_MS', async () => {
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'stuck upload' }], { user: h.discord.fixtures.member });
    // The delivery (the edit of the reply carrying the images) reaches Discord and is never answered.
    const delivery = h.discord.holdNext({ method: 'PATCH', path: new RegExp(`^/webhooks/\\d+/${handle.token}/messages/(@|%40)original$`) });
    await delivery.arrived;
    await h.bot.stop();
    const warning = await h.waitForLog('shutdown grace over; stopping with interactions still in progress');
    expect(warning).toMatchObject({ unfinished: 1 });
    delivery.release();
  });
});

describe('npm start under a process supervisor', () => {
  let discord: DiscordEmulator;
  let gateway: GatewayEmulator;
  beforeAll(async () => {
    [discord, gateway] = await Promise.all([startDiscordEmulator({ log: false }), startGatewayEmulator()]);
  });
  afterAll(async () => {
    await Promise.all([(discord as DiscordEmulator | undefined)?.close(), (gateway as GatewayEmulator | undefined)?.close()]);
  });

  it('logs in, serves, and exits 0 on SIGTERM without logging secrets', async () => {
    const repo = new URL('../..', import.meta.url).pathname;
    const child = spawn(`${repo}node_modules/.bin/tsx`, [`${repo}src/cli.ts`], {
      cwd: repo,
      env: botProcessEnv(discord, gateway, { STORAGE_URL: 'memory://' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await discord.whenReady();
    await new Promise<void>((resolve) => {
      const check = () => (output.includes('"msg":"bot ready"') ? resolve() : child.stdout.once('data', check));
      check();
    });
    const handle = discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'from a real process' }], { user: discord.fixtures.member });
    await handle.waitFor((x) => resultPost(x) !== undefined);
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(output).toContain('"msg":"shut down"');
    expect(output).not.toContain(discord.token);
    expect(output).not.toContain(gateway.apiKey);
  });
});
