/**
 * Public types of the offline Discord emulator. Payload shapes follow discord-api-types v10; the fixture and
 * recording types are the emulator's own vocabulary that tests code against.
 */
import { AttachmentFlags, type APIAttachment, type APIMessage, type APIRole, type APIUser } from 'discord-api-types/v10';

/** Options for {@link startDiscordEmulator}. */
export interface DiscordEmulatorOptions {
  /** Bot token the emulator accepts. @default 'emulator.bot.token' */
  token?: string | undefined;
  /** Initial-response deadline measured on the emulator clock. @default 3000 */
  ackDeadlineMs?: number | undefined;
  /**
   * Time source of the emulator clock, which judges the deadlines and the token lifetime and gives the time new
   * interaction ids encode (`createdTimestamp` in discord.js); `clock.advance` adds to it. A test shares one with the
   * bot so both see the same time. @default real time
   */
  clock?: { now(): number } | undefined;
  /** Interaction token lifetime measured on the emulator clock. @default 900000 */
  tokenLifetimeMs?: number | undefined;
  /** Per-file upload limit in bytes (interactions can override it). @default 20971520 (20 MiB, discord-api-docs PR #8578) */
  attachmentSizeLimit?: number | undefined;
  /** The CDN's speed per download in bytes per second (a slow CDN, for the benchmark); unset: as fast as it can. */
  cdnBytesPerSecond?: number | undefined;
  /** HELLO heartbeat interval sent to clients. @default 45000 */
  heartbeatIntervalMs?: number | undefined;
  /** The shard count GET /gateway/bot recommends (`shards`), which discord.js uses with `shards: 'auto'`. @default 1 */
  recommendedShards?: number | undefined;
  /** GET /gateway/bot `session_start_limit.max_concurrency`: how many shards discord.js IDENTIFYs per 5 s. @default 1 */
  maxConcurrency?: number | undefined;
  /**
   * Also serve `fixtures.thirdGuild`, which is on shard 1 for num_shards 2 to 6 (`guild` and `otherGuild` are on
   * shard 0), for sharding tests. @default false
   */
  thirdGuild?: boolean | undefined;
  /**
   * Real Discord's bugs and surprises (quirks.ts: #7529 edits refusing new uploads shown in CV2 media, #8277 attachments
   * hidden behind the components that show them, the first follow-up after a defer editing the loading message).
   * @default all on
   */
  quirks?: Partial<DiscordQuirks> | undefined;
  /** Log spec violations and rejected requests to stderr. @default true */
  log?: boolean | undefined;
}

/** Which of real Discord's bugs and surprises the emulator plays (quirks.ts says what each one is). */
export interface DiscordQuirks {
  cv2EditUploads: boolean;
  hiddenAttachments: boolean;
  followUpEditsLoading: boolean;
}

/** A guild member as a fixture: the Discord user plus the names of the roles it holds in every fixture guild. */
export interface UserFixture extends APIUser {
  readonly roleNames: readonly RoleName[];
}

export type RoleName = 'artist' | 'vip' | 'admin';

/** A guild text channel fixture. */
export interface ChannelFixture {
  readonly id: string;
  readonly name: string;
  readonly nsfw: boolean;
  readonly guildId: string;
}

/** A guild fixture with its channels and roles. */
/** A thread fixture: a public thread (type 11), which the bot receives, or a private one (type 12) it is not in. */
export interface ThreadFixture {
  readonly id: string;
  readonly name: string;
  readonly type: 11 | 12;
  readonly parentId: string;
  readonly guildId: string;
}

export interface GuildFixture {
  readonly id: string;
  readonly name: string;
  readonly ownerId: string;
  readonly channels: { readonly general: ChannelFixture; readonly nsfw: ChannelFixture };
  /**
   * Threads: a public one under each channel (in GUILD_CREATE, so the bot has them and their parents), and a private
   * one under general that the bot was never added to (Discord sends it nothing about it). Interactions in them carry
   * the thread as their `channel` object, with `parent_id`, as Discord's do.
   */
  readonly threads: { readonly general: ThreadFixture; readonly nsfw: ThreadFixture; readonly private: ThreadFixture };
  readonly roles: { readonly everyone: APIRole; readonly artist: APIRole; readonly vip: APIRole; readonly admin: APIRole };
}

/** Every fixture the emulator serves in READY / GUILD_CREATE. */
export interface EmulatorFixtures {
  readonly guild: GuildFixture;
  readonly otherGuild: GuildFixture;
  /**
   * Set up like `guild` (same channels, roles and members), but on shard 1 for num_shards 2 to 6, where `guild` and
   * `otherGuild` are on shard 0. Served only with the `thirdGuild` option.
   */
  readonly thirdGuild: GuildFixture;
  readonly users: {
    readonly owner: UserFixture;
    /** Holds the admin role: Manage Server (0x20) and Manage Messages (0x2000). */
    readonly admin: UserFixture;
    /** Plain member with the artist role. */
    readonly member: UserFixture;
    readonly member2: UserFixture;
    readonly member3: UserFixture;
    /** Member with the vip role. */
    readonly vip: UserFixture;
  };
  /** Alias of users.admin. */
  readonly admin: UserFixture;
  /** Alias of users.member. */
  readonly member: UserFixture;
  /** Six plain members (no roles, no manage permissions), member2 and member3 first. */
  readonly members: readonly UserFixture[];
}

/** The attachment flag IS_SPOILER (`1 << 3`): set from an upload's `is_spoiler: true` or a SPOILER_ file name. */
export const IS_SPOILER = AttachmentFlags.IsSpoiler;

/** An attachment as Discord serves it; the url points at the emulator CDN. */
export type Attachment = APIAttachment;

/** A message as Discord returns it. */
export type EmulatedMessage = APIMessage;

export interface InteractionContext {
  user: UserFixture;
  /** null = DM with the bot (context 1, `user` instead of `member`). @default fixtures.guild */
  guild?: GuildFixture | null | undefined;
  /** @default the guild's general channel (or the user's DM channel) */
  channelId?: string | undefined;
  attachmentSizeLimit?: number | undefined;
  resolvedAttachments?: Attachment[] | undefined;
  /** Overrides the member permissions computed from roles. */
  memberPermissions?: string | undefined;
  /** Overrides the member's role ids. */
  roles?: string[] | undefined;
  /**
   * Since when the member boosts the server (the member's `premium_since`, an ISO timestamp, as Discord sends it with
   * every interaction in a guild). @default null (not a booster)
   */
  premiumSince?: string | null | undefined;
  /**
   * In a guild: the command comes from the member's own (user) install of the app, not the server's, so
   * authorizing_integration_owners names only the user (`{ "1": user id }`), as Discord sends it in a server that
   * did not install the app. @default false
   */
  userInstall?: boolean | undefined;
  /** The member's client language (`locale`). @default 'en-US' */
  locale?: string | undefined;
  /** The server's preferred language (`guild_locale`, and the `guild` object's `locale`) in a guild. @default 'en-US' */
  guildLocale?: string | undefined;
}

export interface SlashOption {
  name: string;
  type: number;
  value?: string | number | boolean | undefined;
  options?: SlashOption[] | undefined;
  focused?: boolean | undefined;
}

export interface RecordedFile {
  field: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** A component row as the bot sent it: the fields tests read are named, the rest pass through unchecked. */
export interface SentActionRow {
  type: number;
  components: { type: number; custom_id?: string; label?: string; style?: number; url?: string; disabled?: boolean; [key: string]: unknown }[];
}

/**
 * The message fields of a JSON body the bot sent (an edit, a follow-up, a channel post, a callback's data). Typed at
 * the parse boundary, not validated: the spec check and the rules judge the body, tests read what was sent.
 */
export interface SentMessage {
  content?: string | null;
  flags?: number | null;
  embeds?: { description?: string; image?: { url?: string }; [key: string]: unknown }[] | null;
  components?: SentActionRow[] | null;
  attachments?: { id?: string | number; filename?: string; description?: string; title?: string; is_spoiler?: unknown }[] | null;
  allowed_mentions?: { parse?: string[]; users?: string[]; roles?: string[]; replied_user?: boolean } | null;
  tts?: boolean;
  [key: string]: unknown;
}

/** An interaction callback body as the bot sent it (POST /interactions/{id}/{token}/callback). */
export interface SentCallback {
  type?: number;
  data?: SentCallbackData;
}

/** A callback's data: a message (types 4, 7), autocomplete choices (type 8) or a modal (type 9). */
export interface SentCallbackData extends SentMessage {
  choices?: { name: string; value: string | number }[];
  custom_id?: string;
  title?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  receivedAt: number;
  status: number;
  errorCode?: number | undefined;
  /** JSON body or the parsed payload_json of a multipart body; undefined without a body. */
  payload: SentMessage | undefined;
  files: RecordedFile[];
}

export interface RecordedAck {
  type: number;
  body: SentCallback | undefined;
  flags?: number | null | undefined;
  receivedAt: number;
  status: number;
  errorCode?: number | undefined;
  files: RecordedFile[];
}

export interface InteractionHandle {
  readonly id: string;
  readonly token: string;
  /** performance.now() when INTERACTION_CREATE was written to the socket (NaN while queued). */
  readonly dispatchedAt: number;
  /** The INTERACTION_CREATE payload as dispatched. */
  readonly payload: Record<string, unknown>;
  readonly acks: RecordedAck[];
  readonly edits: RecordedRequest[];
  readonly followUps: RecordedRequest[];
  waitForAck(): Promise<RecordedAck>;
  waitFor(predicate: (h: InteractionHandle) => boolean, timeoutMs?: number): Promise<void>;
  /** @original as it stands, or the newest follow-up that still exists once there is one (a result card). */
  lastMessage(): EmulatedMessage | undefined;
  /** @original as it stands (the reply), whatever follows it. */
  originalMessage(): EmulatedMessage | undefined;
}

/** Which requests an injected failure applies to: `path` is tested against the path after /api/v10 (no query). */
export interface FailureMatch {
  /** Any method when omitted. */
  method?: string | undefined;
  path: RegExp;
  /** Tested against the request's Content-Type (e.g. /^multipart\// for uploads only); any when omitted. */
  contentType?: RegExp | undefined;
}

export interface FailureResponse {
  status: number;
  body?: unknown;
  /** Seconds, sent as Retry-After (429 default 0.05). */
  retryAfter?: number | undefined;
  headers?: Record<string, string> | undefined;
  /** Wait this long (real time) before answering, e.g. beyond discord.js's 15 s REST timeout. */
  delayMs?: number | undefined;
  /** Destroy the connection instead of answering (status is then only recorded). */
  dropConnection?: boolean | undefined;
}
