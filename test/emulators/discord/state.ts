/**
 * Shared emulator state: options, clock, ids, fixtures and every store the REST routes, the gateway and the
 * interaction helpers read and write.
 */
import { Cdn } from './cdn.js';
import { CommandRegistry } from './commands.js';
import { ExpressionStore } from './expressions.js';
import { channelJson, createFixtures, SnowflakeGenerator, threadJson, userJson } from './fixtures.js';
import type { InteractionRecord } from './handle.js';
import { MessageStore } from './messages.js';
import { REAL_DISCORD, servedMessage } from './quirks.js';
import type {
  ChannelFixture,
  DiscordEmulatorOptions,
  DiscordQuirks,
  EmulatedMessage,
  EmulatorFixtures,
  GuildFixture,
  RecordedRequest,
  ThreadFixture,
  UserFixture,
} from './types.js';

export interface ResolvedOptions {
  token: string;
  ackDeadlineMs: number;
  tokenLifetimeMs: number;
  attachmentSizeLimit: number;
  heartbeatIntervalMs: number;
  recommendedShards: number;
  maxConcurrency: number;
  thirdGuild: boolean;
  log: boolean;
  /** Real Discord's bugs and surprises the emulator plays (quirks.ts). */
  quirks: DiscordQuirks;
}

export const DEFAULT_TOKEN = 'emulator.bot.token';

/** Emulator time: the base clock's time (real time by default) plus whatever tests advanced it by. */
export class AdjustableClock {
  private offset = 0;
  private readonly base: { now(): number };
  constructor(base: { now(): number } = { now: () => Date.now() }) {
    this.base = base;
  }
  now(): number {
    return this.base.now() + this.offset;
  }
  advance(ms: number): void {
    this.offset += ms;
  }
}

export class EmulatorState {
  readonly options: ResolvedOptions;
  readonly baseUrl: string;
  readonly ids = new SnowflakeGenerator();
  readonly clock: AdjustableClock;
  readonly fixtures: EmulatorFixtures;
  readonly applicationId: string;
  readonly botUser: Record<string, unknown>;
  readonly cdn: Cdn;
  readonly messages: MessageStore;
  readonly commands: CommandRegistry;
  readonly interactions = new Map<string, InteractionRecord>();
  readonly specViolations: string[] = [];
  readonly channelPosts: RecordedRequest[] = [];
  readonly dmPosts: RecordedRequest[] = [];
  /** Every REST request the emulator answered, injected failures included. */
  readonly requests: RecordedRequest[] = [];
  readonly deniedChannels = new Set<string>();
  /** The servers' emoji and stickers, and the bot's permissions in each (expressions.ts). */
  readonly expressions = new ExpressionStore();
  /** Called after every REST request is answered (see {@link record}). */
  readonly requestListeners = new Set<(request: RecordedRequest) => void>();
  private readonly dmChannels = new Map<string, Record<string, unknown>>();

  constructor(options: DiscordEmulatorOptions, baseUrl: string) {
    this.options = {
      token: options.token ?? DEFAULT_TOKEN,
      ackDeadlineMs: options.ackDeadlineMs ?? 3000,
      tokenLifetimeMs: options.tokenLifetimeMs ?? 15 * 60_000,
      // 20 MiB since discord-api-docs PR #8578 (2026-09-04); 10 MiB before.
      attachmentSizeLimit: options.attachmentSizeLimit ?? 20 * 1024 * 1024,
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? 45_000,
      recommendedShards: positive(options.recommendedShards ?? 1, 'recommendedShards'),
      maxConcurrency: positive(options.maxConcurrency ?? 1, 'maxConcurrency'),
      thirdGuild: options.thirdGuild ?? false,
      log: options.log ?? true,
      quirks: { ...REAL_DISCORD, ...options.quirks },
    };
    this.baseUrl = baseUrl;
    this.clock = new AdjustableClock(options.clock);
    this.fixtures = createFixtures(this.ids);
    this.applicationId = this.ids.next(Date.UTC(2024, 5, 1));
    // Like most bots, the bot user shares the application's id.
    this.botUser = { id: this.applicationId, username: 'imagine-bot', discriminator: '0', global_name: null, avatar: null, bot: true, flags: 0 };
    this.cdn = new Cdn(baseUrl, options.cdnBytesPerSecond);
    this.messages = new MessageStore(this.cdn, this.ids);
    this.commands = new CommandRegistry(this.ids, this.applicationId);
  }

  /** The guilds the bot is in (served in READY and GUILD_CREATE, known to the REST routes). */
  get guilds(): GuildFixture[] {
    const { guild, otherGuild, thirdGuild } = this.fixtures;
    return this.options.thirdGuild ? [guild, otherGuild, thirdGuild] : [guild, otherGuild];
  }

  findGuildChannel(id: string): { guild: GuildFixture; channel: ChannelFixture } | undefined {
    return this.findChannelIn(this.guilds, id);
  }

  /**
   * A channel of any fixture guild, the bot's or not: members use the app's commands in a server that installed
   * only the commands (no bot user there), such as `thirdGuild` without the `thirdGuild` option.
   */
  findAnyGuildChannel(id: string): { guild: GuildFixture; channel: ChannelFixture } | undefined {
    const { guild, otherGuild, thirdGuild } = this.fixtures;
    return this.findChannelIn([guild, otherGuild, thirdGuild], id);
  }

  /** The bot's guild a channel or thread is in, or undefined (a DM, an unknown id, a guild without the bot). */
  guildOf(channelId: string): GuildFixture | undefined {
    const thread = this.findThread(channelId);
    return this.findGuildChannel(channelId)?.guild ?? (thread && this.guilds.includes(thread.guild) ? thread.guild : undefined);
  }

  /** A thread of any fixture guild, with its guild. */
  findThread(id: string): { guild: GuildFixture; thread: ThreadFixture } | undefined {
    const { guild, otherGuild, thirdGuild } = this.fixtures;
    for (const g of [guild, otherGuild, thirdGuild]) {
      for (const thread of Object.values(g.threads)) if (thread.id === id) return { guild: g, thread };
    }
    return undefined;
  }

  private findChannelIn(guilds: readonly GuildFixture[], id: string): { guild: GuildFixture; channel: ChannelFixture } | undefined {
    for (const guild of guilds) {
      for (const channel of [guild.channels.general, guild.channels.nsfw]) if (channel.id === id) return { guild, channel };
    }
    return undefined;
  }

  /** The DM channel between the bot and a user (created on first use, like POST /users/@me/channels). */
  dmChannelFor(user: UserFixture): Record<string, unknown> {
    let channel = this.dmChannels.get(user.id);
    if (!channel) {
      channel = { id: this.ids.next(), type: 1, last_message_id: null, flags: 0, recipients: [userJson(user)] };
      this.dmChannels.set(user.id, channel);
    }
    return channel;
  }

  isDmChannel(id: string): boolean {
    return [...this.dmChannels.values()].some((c) => c['id'] === id);
  }

  /** Channel JSON for GET /channels/{id}, or undefined (a private thread the bot is not in is not its to see). */
  channelJson(id: string): Record<string, unknown> | undefined {
    const found = this.findGuildChannel(id);
    if (found) return channelJson(found.channel);
    const thread = this.findThread(id);
    if (thread?.thread.type === 11 && this.guilds.includes(thread.guild)) return threadJson(thread.thread);
    return [...this.dmChannels.values()].find((c) => c['id'] === id);
  }

  findUser(id: string): UserFixture | undefined {
    const { owner, admin, member, vip } = this.fixtures.users;
    return [owner, admin, member, vip, ...this.fixtures.members].find((u) => u.id === id);
  }

  /** Records an answered REST request and tells the listeners (a live view of the channel redraws on it). */
  record(request: RecordedRequest): void {
    this.requests.push(request);
    for (const listener of [...this.requestListeners]) listener(request);
  }

  /** A message as Discord serves it in answers and interaction payloads (quirks.ts). */
  served(message: EmulatedMessage): EmulatedMessage {
    return servedMessage(message, this.options.quirks);
  }

  log(message: string): void {
    if (this.options.log) process.stderr.write(`[discord-emulator] ${message}\n`);
  }
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`Discord emulator: ${name} must be a whole number ≥ 1, not ${value}`);
  return value;
}
