import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imagineOptions, startHarness, type Harness } from './harness.js';
import { resultPost, textOf } from './support.js';

describe('the bot end to end (real discord.js and gateway client against the emulators)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it('logs in and registers its commands once', () => {
    expect(h.discord.commandPuts).toHaveLength(1);
    expect(h.discord.commandPuts[0]?.scope).toBe('global');
    const names = h.discord.registeredCommands('global').map((c) => (c as { name: string }).name);
    expect(names.sort()).toEqual(['Edit image', 'Use as style', 'edit', 'history', 'imagine', 'models', 'quota', 'settings', 'show', 'styles', 'usage']);
  });

  it('answers a minimal /imagine with one PNG in a card under the deferred reply', async () => {
    const handle = h.discord.slash('imagine', imagineOptions('a lighthouse at dusk'), { user: h.discord.fixtures.member });
    const ack = await handle.waitForAck();
    expect(ack.type).toBe(5);
    expect(ack.flags ?? 0).toBe(0);
    await handle.waitFor((x) => resultPost(x) !== undefined);
    const final = resultPost(handle)!;
    expect(final.files).toHaveLength(1);
    const meta = await sharp(final.files[0]!.bytes).metadata();
    expect(meta.format).toBe('png');
    expect([meta.width, meta.height]).toEqual([1024, 1024]);
    expect(textOf(final.payload)).toContain('a lighthouse at dusk');
    expect(handle.acks).toHaveLength(1);
    expect(h.gateway.imageRequests()).toHaveLength(1);
  });

  it('pings nobody in any edit, progress included (the client-wide allowedMentions default)', async () => {
    const held = h.gateway.hold();
    const handle = h.discord.slash('imagine', imagineOptions('a ping test'), { user: h.discord.fixtures.member });
    await held.arrived;
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200 && textOf(e.payload).includes('Generating')));
    held.release();
    await handle.waitFor((x) => resultPost(x) !== undefined && x.edits.some((e) => e.status === 200 && textOf(e.payload).includes('Done')));
    const writes = [...handle.edits, ...handle.followUps];
    expect(writes.length).toBeGreaterThanOrEqual(3);
    expect(writes.map((e) => e.payload?.allowed_mentions)).toEqual(writes.map(() => ({ parse: [] })));
  });

  it('does not re-register unchanged commands on a second start', async () => {
    await h.restart();
    expect(h.discord.commandPuts).toHaveLength(1);
  });

  it('sends nothing the platforms would reject and never logs a secret', () => {
    expect(h.discord.specViolations).toEqual([]);
    expect(h.gateway.specViolations).toEqual([]);
    const all = h.logs.join('\n');
    expect(all).toContain('bot ready');
    expect(all).not.toContain(h.discord.token);
    expect(all).not.toContain(h.gateway.apiKey);
  });
});

describe('npm start', () => {
  it('exits 1 without configuration, naming each missing variable and making no network call', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'imagine-noconf-'));
    const repo = new URL('../..', import.meta.url).pathname;
    const result = spawnSync(join(repo, 'node_modules/.bin/tsx'), [join(repo, 'src/cli.ts')], {
      cwd,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    for (const key of ['DISCORD_TOKEN', 'GATEWAY_BASE_URL', 'GATEWAY_API_KEY']) expect(result.stderr).toContain(key);
    expect(result.stderr).not.toContain('could not start');
  });
});

describe('npm run commands:deploy', () => {
  it('overwrites the commands of one server by hand, from the same definitions', async () => {
    const { startDiscordEmulator } = await import('../emulators/discord/index.js');
    const { COMMAND_DEFINITIONS } = await import('../../src/commands/index.js');
    const discord = await startDiscordEmulator({ log: false });
    try {
      const repo = new URL('../..', import.meta.url).pathname;
      const guildId = discord.fixtures.guild.id;
      const result = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(join(repo, 'node_modules/.bin/tsx'), [join(repo, 'src/commands/deploy.ts'), '--guild', guildId], {
          cwd: mkdtempSync(join(tmpdir(), 'imagine-deploy-')),
          env: { PATH: process.env['PATH'] ?? '', DISCORD_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl, LOG_LEVEL: 'silent' },
        });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => (out += c.toString()));
        child.on('exit', (code) => resolve({ code, out }));
      });
      expect(result.code).toBe(0);
      expect(result.out).toContain(`Registered ${COMMAND_DEFINITIONS.length} commands in server ${guildId}`);
      expect(discord.commandPuts).toHaveLength(1);
      expect(discord.commandPuts[0]?.scope).toBe(guildId);
      const names = (discord.commandPuts[0]?.body ?? []).map((c) => (c as { name: string }).name);
      expect(names).toEqual(COMMAND_DEFINITIONS.map((d) => d.name));
      expect(discord.specViolations).toEqual([]);
    } finally {
      await discord.close();
    }
  });
});

describe('start-up with unreachable storage', () => {
  it('stops with a clear message naming the store, before logging in to Discord', async () => {
    const { loadConfig } = await import('../../src/config.js');
    const { startBot } = await import('../../src/main.js');
    const config = loadConfig({
      DISCORD_TOKEN: 'never-used-token',
      DISCORD_API_URL: 'http://127.0.0.1:9/api',
      GATEWAY_BASE_URL: 'http://127.0.0.1:9/v1',
      GATEWAY_API_KEY: 'sk-never-used',
      STORAGE_URL: 'redis://:hunter2@127.0.0.1:1',
      LOG_LEVEL: 'silent',
    });
    const error = await startBot(config).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/Cannot connect to storage at redis:\/\/127\.0\.0\.1:1/);
    expect((error as Error).message).not.toContain('hunter2');
  });
});
