import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDiscordEmulator, type DiscordEmulator } from '../emulators/discord/index.js';
import { startGatewayEmulator, type GatewayEmulator } from '../emulators/gateway/index.js';
import { startHarness, type Harness } from './harness.js';
import { ephemeralError, finalEdit, settled } from './support.js';

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
    expect(finalEdit(inFlight)).toBeDefined();
    expect(h.gateway.imageRequests().map((r) => r.json?.['prompt'])).not.toContain('too late');
    await h.restart();
    const again = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'after restart' }], { user: h.discord.fixtures.member });
    await again.waitFor((x) => finalEdit(x) !== undefined);
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
      env: {
        PATH: process.env['PATH'] ?? '',
        DISCORD_TOKEN: discord.token,
        DISCORD_API_URL: discord.apiUrl,
        DISCORD_CDN_HOSTS: discord.cdnHost,
        GATEWAY_BASE_URL: gateway.baseUrl,
        GATEWAY_API_KEY: gateway.apiKey,
        STORAGE_URL: 'memory://',
        GATEWAY_PARTIAL_IMAGES: '0',
      },
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
    await handle.waitFor((x) => finalEdit(x) !== undefined);
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(output).toContain('"msg":"shut down"');
    expect(output).not.toContain(discord.token);
    expect(output).not.toContain(gateway.apiKey);
  });
});
