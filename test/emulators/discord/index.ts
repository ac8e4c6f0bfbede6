/**
 * Offline Discord emulator: a loopback REST server (/api/v10), WebSocket gateway and CDN that the real discord.js
 * client logs in to. See discord-platform.md §7 for the contract it implements.
 *
 * @example
 * const discord = await startDiscordEmulator();
 * const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: discord.apiUrl } });
 * await client.login(discord.token);
 * await discord.whenReady();
 * const handle = discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'a cat' }], { user: discord.fixtures.member });
 * await handle.waitFor((h) => h.edits.some((e) => e.status === 200));
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { specStatus } from '../../support/openapi.js';
import { Gateway } from './gateway.js';
import { InteractionDispatcher } from './interactions.js';
import { interactionRoutes } from './interaction-routes.js';
import { restRoutes } from './rest-routes.js';
import { expressionRoutes, type CreatedExpression } from './expressions.js';
import { RestServer, type HeldRestRequest, type StartedRestRequest } from './server.js';
import { EmulatorState } from './state.js';
import { createUserMessage, forwardMessage, type UserMessageExtras } from './user-messages.js';
import {
  IS_SPOILER,
  type Attachment,
  type DiscordEmulatorOptions,
  type EmulatedMessage,
  type EmulatorFixtures,
  type FailureMatch,
  type FailureResponse,
  type InteractionContext,
  type InteractionHandle,
  type RecordedRequest,
  type SlashOption,
  type UserFixture,
} from './types.js';

export type * from './types.js';
export type { UserMessageExtras } from './user-messages.js';
export type { HeldRestRequest, StartedRestRequest } from './server.js';
export type { CreatedExpression } from './expressions.js';
export { CREATE_GUILD_EXPRESSIONS } from './expressions.js';
export { IS_SPOILER } from './types.js';

export interface DiscordEmulator {
  /** 'http://127.0.0.1:PORT/api': discord.js `rest.api` (the bot's DISCORD_API_URL). */
  readonly apiUrl: string;
  /** '127.0.0.1:PORT': the host the CDN serves attachments from. */
  readonly cdnHost: string;
  readonly token: string;
  readonly applicationId: string;
  readonly botUserId: string;
  readonly fixtures: EmulatorFixtures;
  /** Every CDN path the bot requested, in order. */
  cdnFetches(): readonly string[];
  /** The token of every interaction dispatched so far (secrets a log must never show). */
  interactionTokens(): string[];
  readonly clock: { now(): number; advance(ms: number): void };
  /** Every message that exists (interaction responses, follow-ups, channel posts, DMs, user messages). */
  readonly messages: Map<string, EmulatedMessage>;
  readonly channelPosts: RecordedRequest[];
  readonly dmPosts: RecordedRequest[];
  readonly commandPuts: { scope: string; body: unknown[] }[];
  readonly specViolations: string[];
  /** Every REST request answered (including injected failures), in order. */
  readonly requests: RecordedRequest[];
  /** Calls `listener` after each REST request is answered (messages created, edited, deleted); returns the unsubscribe. */
  onRequest(listener: (request: RecordedRequest) => void): () => void;
  /** Gateway counters: IDENTIFYs and RESUMEs received, over all shards and per shard id. */
  readonly gatewayStats: {
    readonly identifies: number;
    readonly resumes: number;
    readonly identifiesByShard: Readonly<Record<number, number>>;
    readonly resumesByShard: Readonly<Record<number, number>>;
  };
  /**
   * Resolves once every shard 0..num_shards-1 (or only `shardId`) has IDENTIFYed and got READY and its GUILD_CREATEs
   * (again, after sendInvalidSession()). With one shard: once the client is ready.
   */
  whenReady(shardId?: number): Promise<void>;
  /** Resolves once every shard (or only `shardId`) has RESUMEd after disconnectClient()/sendReconnect(). */
  whenResumed(shardId?: number): Promise<void>;
  /** The shard a guild's events go to: (guild_id >> 22) % numShards, by default the connected clients' num_shards. */
  shardOf(guildId: string, numShards?: number): number;
  /** Shard ids whose session is on an open socket, ascending. */
  connectedShards(): number[];
  slash(name: string, options: SlashOption[], ctx: InteractionContext): InteractionHandle;
  autocomplete(name: string, options: SlashOption[], ctx: InteractionContext): InteractionHandle;
  button(message: EmulatedMessage, customId: string, ctx: InteractionContext): InteractionHandle;
  select(message: EmulatedMessage, customId: string, values: string[], ctx: InteractionContext): InteractionHandle;
  modalSubmit(
    customId: string,
    fields: Record<string, string | readonly string[]>,
    ctx: InteractionContext & { message?: EmulatedMessage | undefined },
  ): InteractionHandle;
  messageCommand(name: string, target: EmulatedMessage, ctx: InteractionContext): InteractionHandle;
  /** A member's upload (an attachment option's file); `spoiler`: marked as one (IS_SPOILER, as a client's "Mark as spoiler" does). */
  uploadAttachment(bytes: Uint8Array, filename: string, contentType?: string, options?: { spoiler?: boolean }): Attachment;
  /** A member's message (a context-menu target) with files, and optionally embeds or Components V2 (another bot's message). */
  createUserMessage(channelId: string, author: UserFixture, content: string, attachments: Attachment[], extras?: UserMessageExtras): EmulatedMessage;
  /** `author` forwards `source` to `channelId`: a message whose message snapshot holds the original. */
  forwardMessage(source: EmulatedMessage, channelId: string, author: UserFixture): EmulatedMessage;
  registeredCommands(scope?: string): unknown[];
  failNext(match: FailureMatch, response: FailureResponse, times?: number): void;
  /** Holds the next matching REST request unprocessed until released (see RestServer.holdNext). */
  holdNext(match: FailureMatch): HeldRestRequest;
  /** Resolves when the head of the next matching REST request arrives, before its body (see RestServer.nextStart). */
  nextStart(match: FailureMatch): Promise<StartedRestRequest>;
  denyChannelPosts(channelId: string): void;
  /**
   * The bot's permissions in a server from now on: its interactions' `app_permissions` there, and what the expression
   * routes check (@everyone's by default, which lacks CREATE_GUILD_EXPRESSIONS).
   */
  setBotPermissions(guildId: string, bits: bigint): void;
  /** The custom emoji a server has (created through POST /guilds/{id}/emojis), with their images. */
  guildEmojis(guildId: string): readonly CreatedExpression[];
  /** The stickers a server has (created through POST /guilds/{id}/stickers), with their images. */
  guildStickers(guildId: string): readonly CreatedExpression[];
  allowChannelPosts(channelId: string): void;
  /** Closes every connected shard's socket, or `shardId`'s (default code 4000: the client RESUMEs). */
  disconnectClient(code?: number, shardId?: number): void;
  /** op 7 to every connected shard, or to `shardId`. */
  sendReconnect(shardId?: number): void;
  /** op 9 to every connected shard, or to `shardId`; with `resumable` false (default) the client starts a new session (IDENTIFY). */
  sendInvalidSession(resumable?: boolean, shardId?: number): void;
  close(): Promise<void>;
}

/**
 * Starts the emulator on an ephemeral loopback port.
 * @throws when the Discord spec is absent and OPENAPI_SPEC_REQUIRED=true (test/support/openapi.ts)
 */
export async function startDiscordEmulator(options: DiscordEmulatorOptions = {}): Promise<DiscordEmulator> {
  specStatus('discord');
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const state = new EmulatorState(options, `http://127.0.0.1:${port}`);
  const gateway = new Gateway(state);
  const rest = new RestServer(state, [...interactionRoutes(state), ...restRoutes(state), ...expressionRoutes(state)]);
  const interactions = new InteractionDispatcher(state, gateway);
  server.on('request', rest.listener);
  server.on('upgrade', gateway.upgrade);

  return {
    apiUrl: `${state.baseUrl}/api`,
    cdnHost: `127.0.0.1:${port}`,
    token: state.options.token,
    applicationId: state.applicationId,
    botUserId: String(state.botUser['id']),
    fixtures: state.fixtures,
    clock: state.clock,
    messages: state.messages.messages,
    channelPosts: state.channelPosts,
    dmPosts: state.dmPosts,
    commandPuts: state.commands.puts,
    specViolations: state.specViolations,
    requests: state.requests,
    onRequest: (listener) => {
      state.requestListeners.add(listener);
      return () => void state.requestListeners.delete(listener);
    },
    gatewayStats: gateway,
    whenReady: (shardId) => gateway.whenReady(shardId),
    whenResumed: (shardId) => gateway.whenResumed(shardId),
    shardOf: (guildId, numShards) => gateway.shardOf(guildId, numShards),
    connectedShards: () => gateway.connectedShards(),
    cdnFetches: () => state.cdn.fetches,
    interactionTokens: () => [...state.interactions.values()].map((record) => record.token),
    slash: (name, opts, ctx) => interactions.slash(name, opts, ctx),
    autocomplete: (name, opts, ctx) => interactions.autocomplete(name, opts, ctx),
    button: (message, customId, ctx) => interactions.button(message, customId, ctx),
    select: (message, customId, values, ctx) => interactions.select(message, customId, values, ctx),
    modalSubmit: (customId, fields, ctx) => interactions.modalSubmit(customId, fields, ctx),
    messageCommand: (name, target, ctx) => interactions.messageCommand(name, target, ctx),
    uploadAttachment: (bytes, filename, contentType, options) =>
      state.cdn.store(state.ids.next(), `ephemeral-attachments/${state.ids.next()}`, bytes, filename, contentType, {
        ephemeral: true,
        ...(options?.spoiler === true ? { flags: IS_SPOILER } : {}),
      }),
    createUserMessage: (channelId, author, content, attachments, extras) => createUserMessage(state, channelId, author, content, attachments, extras),
    forwardMessage: (source, channelId, author) => forwardMessage(state, source, channelId, author),
    registeredCommands: (scope = 'global') => state.commands.list(scope),
    failNext: (match, response, times) => rest.failNext(match, response, times),
    holdNext: (match) => rest.holdNext(match),
    nextStart: (match) => rest.nextStart(match),
    denyChannelPosts: (channelId) => void state.deniedChannels.add(channelId),
    setBotPermissions: (guildId, bits) => state.expressions.setBotPermissions(guildId, bits),
    guildEmojis: (guildId) => state.expressions.emojisOf(guildId),
    guildStickers: (guildId) => state.expressions.stickersOf(guildId),
    allowChannelPosts: (channelId) => void state.deniedChannels.delete(channelId),
    disconnectClient: (code, shardId) => gateway.disconnectClient(code, shardId),
    sendReconnect: (shardId) => gateway.sendReconnect(shardId),
    sendInvalidSession: (resumable, shardId) => gateway.sendInvalidSession(resumable, shardId),
    close: async () => {
      await gateway.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
