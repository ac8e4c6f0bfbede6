/**
 * The gateway shards as Discord does, driven by real discord.js clients: one shard per process, two shards in one
 * process, `shards: 'auto'` from GET /gateway/bot, and a raw IDENTIFY the emulator refuses with 4010.
 * Fixtures (with the `thirdGuild` option) for num_shards 2: `guild` and `otherGuild` are on shard 0, `thirdGuild` on 1.
 */
import { Client, type ClientOptions, Events, GatewayDispatchEvents, GatewayIntentBits, type GatewayDispatchPayload } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RawData, WebSocket } from 'ws';
import { type DiscordEmulator, type InteractionContext, startDiscordEmulator } from './index.js';

/** A logged-in client and the INTERACTION_CREATEs it received, with the shard that delivered each. */
interface ShardedClient {
  readonly client: Client<true>;
  readonly interactions: { id: string; shardId: number }[];
}

const clients: Client[] = [];

/** Logs a real discord.js client in with the given shard options and waits for clientReady. */
async function login(emulator: DiscordEmulator, options: Pick<ClientOptions, 'shards' | 'shardCount'>): Promise<ShardedClient> {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], ...options, rest: { api: emulator.apiUrl } });
  clients.push(client);
  const interactions: { id: string; shardId: number }[] = [];
  client.on(Events.Raw, (packet: GatewayDispatchPayload, shardId: number) => {
    if (packet.t === GatewayDispatchEvents.InteractionCreate) interactions.push({ id: packet.d.id, shardId });
  });
  const ready = new Promise<Client<true>>((resolve) => client.once(Events.ClientReady, resolve));
  await client.login(emulator.token);
  return { client: await ready, interactions };
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.destroy()));
});

const guildIds = (c: ShardedClient) => [...c.client.guilds.cache.keys()].sort();
const slashIn = (emulator: DiscordEmulator, guild: InteractionContext['guild']) =>
  emulator.slash('imagine', [{ name: 'prompt', type: 3, value: 'a cat' }], { user: emulator.fixtures.member, guild });

describe('sharding with real discord.js clients', () => {
  let emulator: DiscordEmulator;

  beforeAll(async () => {
    // maxConcurrency 2: a process running two shards IDENTIFYs them together instead of 5 s apart.
    emulator = await startDiscordEmulator({ log: false, thirdGuild: true, recommendedShards: 2, maxConcurrency: 2 });
  });
  afterAll(async () => {
    await (emulator as DiscordEmulator | undefined)?.close();
  });

  it('places the fixture guilds on both shards of two', () => {
    const { guild, otherGuild, thirdGuild } = emulator.fixtures;
    expect([guild, otherGuild, thirdGuild].map((g) => emulator.shardOf(g.id, 2))).toEqual([0, 0, 1]);
    expect(emulator.shardOf(thirdGuild.id, 1)).toBe(0);
  });

  it('serves two processes one shard each: each sees its own guilds and gets only its guilds’ interactions, DMs on shard 0', async () => {
    const { guild, otherGuild, thirdGuild } = emulator.fixtures;
    const identifiesBefore = { ...emulator.gatewayStats.identifiesByShard };
    const [shard0, shard1] = await Promise.all([login(emulator, { shards: [0], shardCount: 2 }), login(emulator, { shards: [1], shardCount: 2 })]);
    await emulator.whenReady();
    expect(emulator.connectedShards()).toEqual([0, 1]);
    expect(emulator.gatewayStats.identifiesByShard).toEqual({ 0: (identifiesBefore[0] ?? 0) + 1, 1: (identifiesBefore[1] ?? 0) + 1 });
    expect(guildIds(shard0)).toEqual([guild.id, otherGuild.id].sort());
    expect(guildIds(shard1)).toEqual([thirdGuild.id]);

    const inGuild = slashIn(emulator, guild);
    const inOtherGuild = slashIn(emulator, otherGuild);
    const inThirdGuild = slashIn(emulator, thirdGuild);
    const inDm = slashIn(emulator, null);
    await expect.poll(() => shard0.interactions.map((i) => i.id), { timeout: 5000 }).toEqual([inGuild.id, inOtherGuild.id, inDm.id]);
    await expect.poll(() => shard1.interactions.map((i) => i.id), { timeout: 5000 }).toEqual([inThirdGuild.id]);
    expect(shard0.client.guilds.cache.get(guild.id)?.shardId).toBe(0);
    expect(shard1.client.guilds.cache.get(thirdGuild.id)?.shardId).toBe(1);
    expect(emulator.specViolations).toEqual([]);
  });

  it('serves two shards in one process, and RESUMEs each shard on its own session', async () => {
    const { guild, otherGuild, thirdGuild } = emulator.fixtures;
    const both = await login(emulator, { shards: [0, 1], shardCount: 2 });
    await emulator.whenReady();
    expect([...both.client.ws.shards.keys()].sort()).toEqual([0, 1]);
    expect(guildIds(both)).toEqual([guild.id, otherGuild.id, thirdGuild.id].sort());
    expect(both.client.guilds.cache.get(guild.id)?.shardId).toBe(0);
    expect(both.client.guilds.cache.get(thirdGuild.id)?.shardId).toBe(1);

    const inGuild = slashIn(emulator, guild);
    const inThirdGuild = slashIn(emulator, thirdGuild);
    // Two sockets: no order between them.
    await expect
      .poll(() => [...both.interactions].sort((a, b) => a.id.localeCompare(b.id)), { timeout: 5000 })
      .toEqual([
        { id: inGuild.id, shardId: 0 },
        { id: inThirdGuild.id, shardId: 1 },
      ]);

    // Shard 1 alone goes away; what its guild dispatches meanwhile is replayed on its own RESUME.
    const resumesBefore = { ...emulator.gatewayStats.resumesByShard };
    emulator.disconnectClient(4000, 1);
    expect(emulator.connectedShards()).toEqual([0]);
    const whileAway = slashIn(emulator, thirdGuild);
    await emulator.whenResumed();
    expect(emulator.gatewayStats.resumesByShard[1]).toBe((resumesBefore[1] ?? 0) + 1);
    expect(emulator.gatewayStats.resumesByShard[0]).toBe(resumesBefore[0]);
    await expect.poll(() => both.interactions.at(-1), { timeout: 5000 }).toEqual({ id: whileAway.id, shardId: 1 });
  });

  it("connects the recommended number of shards for shards: 'auto'", async () => {
    const auto = await login(emulator, { shards: 'auto' });
    await emulator.whenReady();
    expect(auto.client.options.shardCount).toBe(2);
    expect([...auto.client.ws.shards.keys()].sort()).toEqual([0, 1]);
    expect(emulator.connectedShards()).toEqual([0, 1]);
    expect(guildIds(auto)).toHaveLength(3);
  });
});

describe('the default single shard', () => {
  it('recommends one shard and serves every guild to a client that does not shard', async () => {
    const emulator = await startDiscordEmulator({ log: false, thirdGuild: true });
    try {
      const res = await fetch(`${emulator.apiUrl}/v10/gateway/bot`, { headers: { authorization: `Bot ${emulator.token}` } });
      expect(await res.json()).toMatchObject({ shards: 1, session_start_limit: { max_concurrency: 1 } });
      const single = await login(emulator, {});
      await emulator.whenReady();
      expect(emulator.connectedShards()).toEqual([0]);
      expect(guildIds(single)).toHaveLength(3);
      const inThirdGuild = slashIn(emulator, emulator.fixtures.thirdGuild);
      await expect.poll(() => single.interactions, { timeout: 5000 }).toEqual([{ id: inThirdGuild.id, shardId: 0 }]);
    } finally {
      await Promise.all(clients.splice(0).map((c) => c.destroy()));
      await emulator.close();
    }
  });
});

interface Frame {
  op: number;
  t?: string;
  d: Record<string, unknown>;
}

describe('IDENTIFY validation and sessions (raw gateway)', () => {
  let emulator: DiscordEmulator;
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    emulator = await startDiscordEmulator({ log: false, thirdGuild: true });
  });
  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    await (emulator as DiscordEmulator | undefined)?.close();
  });

  /** Opens a raw gateway socket and IDENTIFYs with `shard` after HELLO; `closed` is the close code, or 'open' after 2 s. */
  function identify(shard: unknown): { frames: Frame[]; closed: Promise<number | 'open'> } {
    const ws = new WebSocket(`ws://${emulator.cdnHost}/gateway?v=10&encoding=json`);
    sockets.push(ws);
    const frames: Frame[] = [];
    ws.on('message', (data: RawData) => {
      const frame = JSON.parse((data as Buffer).toString()) as Frame;
      frames.push(frame);
      if (frame.op === 10) ws.send(JSON.stringify({ op: 2, d: { token: emulator.token, intents: 1, properties: {}, shard } }));
    });
    const closed = new Promise<number | 'open'>((resolve) => {
      ws.on('close', resolve);
      setTimeout(() => resolve('open'), 2000);
    });
    return { frames, closed };
  }

  const dispatched = (frames: Frame[], t: string) => frames.filter((f) => f.t === t).map((f) => f.d['id']);

  it('closes with 4010 an IDENTIFY whose shard id is not below num_shards, or which is malformed', async () => {
    expect(await identify([2, 2]).closed).toBe(4010);
    expect(await identify([-1, 2]).closed).toBe(4010);
    expect(await identify([0, 0]).closed).toBe(4010);
    expect(await identify('0,1').closed).toBe(4010);
    expect(emulator.gatewayStats.identifies).toBe(0);
  });

  it('answers READY with the shard echoed and only its guilds, and refuses a num_shards the live shards do not use', async () => {
    const { thirdGuild } = emulator.fixtures;
    const shard1 = identify([1, 2]);
    await emulator.whenReady(1);
    await expect.poll(() => dispatched(shard1.frames, 'GUILD_CREATE'), { timeout: 5000 }).toEqual([thirdGuild.id]);
    const ready = shard1.frames.find((f) => f.t === 'READY');
    expect(ready?.d['shard']).toEqual([1, 2]);
    expect(ready?.d['guilds']).toEqual([{ id: thirdGuild.id, unavailable: true }]);
    // Shard 0 of 2 has not identified: the emulator is not ready as a whole.
    const whole = await Promise.race([emulator.whenReady().then(() => 'ready'), new Promise((resolve) => setTimeout(() => resolve('pending'), 100))]);
    expect(whole).toBe('pending');
    expect(await identify([0, 3]).closed).toBe(4010);
    expect(emulator.connectedShards()).toEqual([1]);
  });

  it('lets a second IDENTIFY for a live shard replace its session: the new socket gets the shard’s dispatches', async () => {
    const { thirdGuild } = emulator.fixtures;
    const before = identify([1, 2]);
    await expect.poll(() => dispatched(before.frames, 'GUILD_CREATE'), { timeout: 5000 }).toEqual([thirdGuild.id]);
    const after = identify([1, 2]);
    await expect.poll(() => dispatched(after.frames, 'GUILD_CREATE'), { timeout: 5000 }).toEqual([thirdGuild.id]);
    const sessionOf = (frames: Frame[]) => frames.find((f) => f.t === 'READY')?.d['session_id'];
    expect(sessionOf(after.frames)).not.toBe(sessionOf(before.frames));
    const h = emulator.slash('imagine', [], { user: emulator.fixtures.member, guild: thirdGuild });
    await expect.poll(() => dispatched(after.frames, 'INTERACTION_CREATE'), { timeout: 5000 }).toEqual([h.id]);
    expect(dispatched(before.frames, 'INTERACTION_CREATE')).toEqual([]);
    expect(emulator.gatewayStats.identifiesByShard).toEqual({ 1: 3 });
  });
});
