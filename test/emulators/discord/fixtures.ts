/**
 * Snowflakes and the fixture world (two guilds, a third for sharding tests, their roles, channels and members) the
 * emulator serves.
 */
import type { APIRole, RoleFlags, UserFlags } from 'discord-api-types/v10';
import type { ChannelFixture, EmulatorFixtures, GuildFixture, RoleName, ThreadFixture, UserFixture } from './types.js';

const DISCORD_EPOCH = 1_420_070_400_000n;

/** Issues realistic 18–19 digit snowflakes (timestamp << 22 | counter), unique per generator. */
export class SnowflakeGenerator {
  private counter = 0n;

  /** @param baseMs timestamp the ids encode; defaults to now at each call. */
  next(baseMs: number = Date.now()): string {
    this.counter = (this.counter + 1n) & 0x3fffffn;
    return (((BigInt(baseMs) - DISCORD_EPOCH) << 22n) | this.counter).toString();
  }
}

/** Permission bits used by the fixtures. */
export const Permissions = {
  manageGuild: 0x20n,
  manageMessages: 0x2000n,
  /** View, send, embed, attach, read history, use application commands, … */
  everyone: 0x400n | 0x800n | 0x4000n | 0x8000n | 0x10000n | 0x40000n | 0x80000000n | 0x40n,
  all: (1n << 50n) - 1n,
} as const;

const FIXTURE_TIME = Date.UTC(2025, 0, 1);

/** Builds the fixture world with ids drawn from `ids`. */
export function createFixtures(ids: SnowflakeGenerator): EmulatorFixtures {
  const user = (username: string, roleNames: RoleName[] = []): UserFixture => ({
    id: ids.next(FIXTURE_TIME),
    username,
    discriminator: '0',
    global_name: (username[0]?.toUpperCase() ?? '') + username.slice(1),
    avatar: null,
    // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- a bitfield enum has no 0 member; 0 is "no flags", as Discord sends it.
    public_flags: 0 as UserFlags,
    roleNames,
  });
  const owner = user('owner');
  const admin = user('admin', ['admin']);
  const member = user('member', ['artist']);
  const vip = user('vip', ['vip']);
  const members = ['member2', 'member3', 'member4', 'member5', 'member6', 'member7'].map((n) => user(n));
  const guild = createGuild(ids, 'Emulated Guild', owner.id);
  const otherGuild = createGuild(ids, 'Other Guild', owner.id);
  // A guild's shard is (id >> 22) % num_shards, the id's timestamp modulo the count. FIXTURE_TIME is a multiple of 2, 3,
  // 4, 5 and 6 milliseconds past the Discord epoch, so for num_shards 2 to 6 the guilds above are on shard 0; one
  // millisecond later puts this one on shard 1. Its own generator leaves every other fixture id as it was.
  const third = new SnowflakeGenerator();
  const thirdGuild = withThreads(third, createGuild(third, 'Third Guild', owner.id, FIXTURE_TIME + 1));
  const [member2, member3] = members as [UserFixture, UserFixture];
  return {
    guild: withThreads(ids, guild),
    otherGuild: withThreads(ids, otherGuild),
    thirdGuild,
    users: { owner, admin, member, member2, member3, vip },
    admin,
    member,
    members,
  };
}

/** The guild with its threads (ids taken after every guild's, so the others stay as they were). */
function withThreads(ids: SnowflakeGenerator, guild: Omit<GuildFixture, 'threads'>): GuildFixture {
  const thread = (name: string, parentId: string, type: 11 | 12): ThreadFixture => ({ id: ids.next(FIXTURE_TIME), name, type, parentId, guildId: guild.id });
  const { general, nsfw } = guild.channels;
  return {
    ...guild,
    threads: { general: thread('general-chat', general.id, 11), nsfw: thread('nsfw-chat', nsfw.id, 11), private: thread('secret', general.id, 12) },
  };
}

function createGuild(ids: SnowflakeGenerator, name: string, ownerId: string, time = FIXTURE_TIME): Omit<GuildFixture, 'threads'> {
  const id = ids.next(time);
  const role = (roleId: string, roleName: string, permissions: bigint, position: number): APIRole => ({
    id: roleId,
    name: roleName,
    permissions: permissions.toString(),
    position,
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- Discord still sends the deprecated `color` next to `colors`; the fixture mirrors the wire.
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    managed: false,
    mentionable: false,
    // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- a bitfield enum has no 0 member; 0 is "no flags", as Discord sends it.
    flags: 0 as RoleFlags,
  });
  const channel = (channelName: string, nsfw: boolean): ChannelFixture => ({ id: ids.next(time), name: channelName, nsfw, guildId: id });
  return {
    id,
    name,
    ownerId,
    channels: { general: channel('general', false), nsfw: channel('nsfw-art', true) },
    roles: {
      everyone: role(id, '@everyone', Permissions.everyone, 0),
      artist: role(ids.next(time), 'Artist', 0n, 1),
      vip: role(ids.next(time), 'VIP', 0n, 2),
      admin: role(ids.next(time), 'Admin', Permissions.manageGuild | Permissions.manageMessages, 3),
    },
  };
}

/** Every fixture user that is a member of the fixture guilds. */
export function allUsers(fixtures: EmulatorFixtures): UserFixture[] {
  const { owner, admin, member, vip } = fixtures.users;
  return [owner, admin, member, vip, ...fixtures.members];
}

/** Role ids a user holds in a guild. */
export function memberRoleIds(guild: GuildFixture, user: UserFixture): string[] {
  return user.roleNames.map((name) => guild.roles[name].id);
}

/** Guild-level permissions of a member (owner: all), as Discord's decimal string. */
export function memberPermissions(guild: GuildFixture, user: UserFixture, roleIds: readonly string[]): string {
  if (user.id === guild.ownerId) return Permissions.all.toString();
  let bits = BigInt(guild.roles.everyone.permissions);
  for (const role of Object.values(guild.roles)) if (roleIds.includes(role.id)) bits |= BigInt(role.permissions);
  return bits.toString();
}

/** The channel JSON Discord returns for a fixture text channel. */
export function channelJson(channel: ChannelFixture, position = 0): Record<string, unknown> {
  return {
    id: channel.id,
    type: 0,
    guild_id: channel.guildId,
    name: channel.name,
    position,
    permission_overwrites: [],
    parent_id: null,
    nsfw: channel.nsfw,
    topic: null,
    last_message_id: null,
    rate_limit_per_user: 0,
    flags: 0,
  };
}

/** The channel JSON Discord returns for a thread (and puts in an interaction's `channel`): its parent in `parent_id`. */
export function threadJson(thread: ThreadFixture): Record<string, unknown> {
  return {
    id: thread.id,
    type: thread.type,
    guild_id: thread.guildId,
    name: thread.name,
    parent_id: thread.parentId,
    owner_id: null,
    last_message_id: null,
    rate_limit_per_user: 0,
    message_count: 0,
    member_count: 1,
    thread_metadata: { archived: false, auto_archive_duration: 1440, archive_timestamp: '2025-01-01T00:00:00.000000+00:00', locked: false },
    flags: 0,
  };
}

/** The member JSON (with user) for a fixture user in a guild. */
export function memberJson(guild: GuildFixture, user: UserFixture, roleIds = memberRoleIds(guild, user)): Record<string, unknown> {
  return {
    user: userJson(user),
    roles: roleIds,
    joined_at: '2025-01-01T00:00:00.000000+00:00',
    premium_since: null,
    nick: null,
    pending: false,
    flags: 0,
    mute: false,
    deaf: false,
    avatar: null,
    communication_disabled_until: null,
  };
}

/** The plain Discord user object of a fixture (without the emulator's roleNames). */
export function userJson(user: UserFixture): Record<string, unknown> {
  const { roleNames: _roleNames, ...rest } = user;
  return rest;
}

/** The GUILD_CREATE dispatch payload for a guild. */
export function guildCreatePayload(guild: GuildFixture, members: UserFixture[], botUser: Record<string, unknown>): Record<string, unknown> {
  const channels = [guild.channels.general, guild.channels.nsfw].map((c, i) => channelJson(c, i));
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    owner_id: guild.ownerId,
    unavailable: false,
    joined_at: '2025-01-01T00:00:00.000Z',
    large: false,
    member_count: members.length + 1,
    features: [],
    preferred_locale: 'en-US',
    roles: Object.values(guild.roles),
    channels: channels.map(({ guild_id: _g, ...c }) => c),
    members: [
      ...members.map((m) => memberJson(guild, m)),
      { user: botUser, roles: [], joined_at: '2025-01-01T00:00:00.000000+00:00', deaf: false, mute: false, flags: 0, pending: false },
    ],
    // Active threads the bot can see: the public ones (a private thread it was never added to is not sent).
    threads: [guild.threads.general, guild.threads.nsfw].map(threadJson),
    presences: [],
    voice_states: [],
    emojis: [],
    stickers: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}
