/**
 * Two real bot processes, one shard each, against the sharding Discord emulator and one Redis store: a member's
 * quota is one truth across them. The member runs the app from their own (user) install in two servers, one on
 * each shard, so both processes charge the same personal quota (QUOTA_DEFAULT_LIMIT) at the same time.
 */
import { createClient } from '@keyv/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDiscordEmulator, type DiscordEmulator } from '../emulators/discord/index.js';
import { startGatewayEmulator, type GatewayEmulator } from '../emulators/gateway/index.js';
import { logged, startBotProcess, stopBotProcess, type BotProcess } from './bot-process.js';
import { botProcessEnv } from './bot-process-env.js';
import { resultPost, settled } from './support.js';

const REDIS_URL = process.env['REDIS_URL'];
/** A database of its own, emptied before the run, so no other test's keys (or an earlier run's) are seen. */
const REDIS_DB = 11;

const TITLE = 'two shard processes sharing one Redis store';
describe.skipIf(REDIS_URL === undefined)(REDIS_URL === undefined ? `${TITLE}: skipped because REDIS_URL is not set` : TITLE, () => {
  let discord: DiscordEmulator;
  let gateway: GatewayEmulator;
  const bots: BotProcess[] = [];
  const storageUrl = `${(REDIS_URL ?? '').replace(/\/\d*$/, '')}/${REDIS_DB}`;

  beforeAll(async () => {
    const redis = createClient({ url: storageUrl });
    await redis.connect();
    await redis.flushDb();
    await redis.quit();
    [discord, gateway] = await Promise.all([startDiscordEmulator({ log: false, thirdGuild: true }), startGatewayEmulator()]);
    for (const shard of [0, 1]) bots.push(startBot(shard));
    await discord.whenReady();
    await Promise.all(bots.map((bot) => logged(bot, '"msg":"bot ready"')));
  });

  afterAll(async () => {
    await Promise.all(bots.map((bot) => stopBotProcess(bot)));
    await Promise.all([(discord as DiscordEmulator | undefined)?.close(), (gateway as GatewayEmulator | undefined)?.close()]);
  });

  function startBot(shard: number): BotProcess {
    return startBotProcess(
      botProcessEnv(discord, gateway, {
        STORAGE_URL: storageUrl,
        SHARD_COUNT: '2',
        SHARD_IDS: String(shard),
        QUOTA_DEFAULT_LIMIT: '3',
        MAX_RUNNING_PER_MEMBER: '12',
        MAX_QUEUED_PER_MEMBER: '12',
      }),
    );
  }

  it('serves each server from its own shard process', () => {
    expect(discord.shardOf(discord.fixtures.guild.id)).toBe(0);
    expect(discord.shardOf(discord.fixtures.thirdGuild.id)).toBe(1);
    expect(discord.connectedShards()).toEqual([0, 1]);
  });

  it("gives exactly 3 of a member's 12 simultaneous /imagine across both shards: 3 deliveries, 3 gateway requests", async () => {
    const member = discord.fixtures.users.member;
    const handles = Array.from({ length: 12 }, (_, i) =>
      discord.slash('imagine', [{ name: 'prompt', type: 3, value: `shared quota ${i}` }], {
        user: member,
        guild: i % 2 === 0 ? discord.fixtures.guild : discord.fixtures.thirdGuild,
        userInstall: true,
      }),
    );
    await Promise.all(handles.map((handle) => handle.waitFor((x) => settled(x) || resultPost(x) !== undefined)));
    await Promise.all(handles.map((handle) => handle.waitFor(settled)));
    const delivered = handles.filter((handle) => resultPost(handle) !== undefined);
    expect(delivered).toHaveLength(3);
    expect(gateway.imageRequests()).toHaveLength(3);
    // Both processes took part: each shard answered its own server's six requests.
    expect(bots.every((bot) => bot.output().includes('"msg":"bot ready"'))).toBe(true);
  });
});
