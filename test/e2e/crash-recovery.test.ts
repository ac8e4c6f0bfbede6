/**
 * A bot process SIGKILLed while the gateway holds its job: the job is in the journal, so when the process comes back
 * (or another live process sharing the store notices) its reservation is released and the member is told that the
 * request was cancelled and not charged, on the original reply, with a Re-roll that works.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDiscordEmulator, type DiscordEmulator, type InteractionHandle } from '../emulators/discord/index.js';
import { startGatewayEmulator, type GatewayEmulator } from '../emulators/gateway/index.js';
import { logged, startBotProcess, stopBotProcess, type BotProcess } from './bot-process.js';
import { botProcessEnv } from './bot-process-env.js';
import { resultPost, lastText, quotaText, textOf } from './support.js';

const READY = '"msg":"bot ready"';
const TOLD = 'not charged';

describe('a bot process killed mid-job', { timeout: 90_000 }, () => {
  let discord: DiscordEmulator;
  let gateway: GatewayEmulator;
  let dir: string;
  const bots: BotProcess[] = [];

  beforeAll(async () => {
    [discord, gateway, dir] = await Promise.all([startDiscordEmulator({ log: false }), startGatewayEmulator(), mkdtemp(path.join(tmpdir(), 'imagine-crash-'))]);
  });

  afterEach(async () => {
    await Promise.all(bots.splice(0).map((bot) => stopBotProcess(bot)));
  });

  afterAll(async () => {
    await Promise.all([(discord as DiscordEmulator | undefined)?.close(), (gateway as GatewayEmulator | undefined)?.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  /** A bot process on the test's SQLite file `file`, with a short lease so the test does not wait a minute. */
  function start(file: string, settings: Record<string, string> = {}): BotProcess {
    const bot = startBotProcess(
      botProcessEnv(discord, gateway, { STORAGE_URL: `sqlite://${path.join(dir, file)}`, JOB_LEASE_MS: '1500', QUOTA_DEFAULT_LIMIT: '2', ...settings }),
    );
    bots.push(bot);
    return bot;
  }

  /** Starts a member's /imagine and resolves once the gateway holds its request; the hold is released by the caller. */
  async function heldImagine(prompt: string): Promise<{ handle: InteractionHandle; release: () => void }> {
    const held = gateway.hold();
    const handle = discord.slash('imagine', [{ name: 'prompt', type: 3, value: prompt }], { user: discord.fixtures.member });
    await held.arrived;
    return { handle, release: () => held.release() };
  }

  /** Checks the notice on the original reply, then re-rolls from it: a new job, delivered and charged. */
  async function expectToldWithReroll(handle: InteractionHandle, prompt: string): Promise<void> {
    await handle.waitFor((x) => lastText(x).includes(TOLD));
    const notice = handle.lastMessage();
    expect(textOf(notice)).toContain(prompt);
    expect(textOf(notice)).toContain('cancelled');
    // A card like every reply: the notice in a container, then the Re-roll row.
    const row = ((notice?.components ?? []) as { type: number; components: { custom_id: string; label: string }[] }[]).find((c) => c.type === 1);
    expect(row?.components.map((button) => button.label)).toEqual(['Re-roll']);
    expect(await quotaText(discord, discord.fixtures.member)).toContain('2 of 2');

    const reroll = discord.button(notice!, row!.components[0]!.custom_id, { user: discord.fixtures.member });
    await reroll.waitFor((x) => resultPost(x) !== undefined);
    expect(gateway.imageRequests().at(-1)?.json).toMatchObject({ prompt });
    expect(await quotaText(discord, discord.fixtures.member)).toContain('1 of 2');
  }

  it('restarted, it releases the reservation and tells the member on the original reply', async () => {
    const first = start('restart.sqlite');
    await logged(first, READY);
    const prompt = 'a lighthouse in fog';
    const { handle, release } = await heldImagine(prompt);
    expect(await quotaText(discord, discord.fixtures.member)).toContain('1 of 2');

    await stopBotProcess(first, 'SIGKILL');
    release();
    const second = start('restart.sqlite');
    await logged(second, READY);

    await expectToldWithReroll(handle, prompt);
    expect(second.output()).toContain('abandoned job refunded and its member told');
    // The notice is the only answer: the killed process delivered nothing.
    expect(resultPost(handle)).toBeUndefined();
  });

  it('a second live process sharing the store releases it and tells the member', async () => {
    const settings = { SHARD_COUNT: '2' };
    const [owner, peer] = [start('peer.sqlite', { ...settings, SHARD_IDS: '0' }), start('peer.sqlite', { ...settings, SHARD_IDS: '1' })];
    await Promise.all([logged(owner, READY), logged(peer, READY)]);
    // The member's server is on shard 0, so the owner process takes the job.
    expect(discord.shardOf(discord.fixtures.guild.id)).toBe(0);
    const prompt = 'a kite over dunes';
    const { handle, release } = await heldImagine(prompt);

    await stopBotProcess(owner, 'SIGKILL');
    release();
    // The peer keeps serving shard 1 only; shard 0's server is answered again by a restarted owner, for the re-roll.
    await logged(peer, 'abandoned job refunded and its member told');
    expect(lastText(handle)).toContain(TOLD);
    const restarted = start('peer.sqlite', { ...settings, SHARD_IDS: '0' });
    await logged(restarted, READY);
    await expectToldWithReroll(handle, prompt);
    expect(restarted.output()).not.toContain('abandoned job refunded');
  });
});
