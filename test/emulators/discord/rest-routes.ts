/**
 * Bot-token routes: gateway discovery, command registration, channel messages, DM channels, @me.
 */
import { commandsProblem, fileTypesProblem } from './commands.js';
import { userJson } from './fixtures.js';
import { messageBody, type RestRequest, type Route, toRecorded } from './http.js';
import { checkMessage, Errors, isEmptyMessage, type RestResult } from './rules.js';
import type { EmulatorState } from './state.js';

export function restRoutes(state: EmulatorState): Route[] {
  const ok = (body: unknown): RestResult => ({ status: 200, body });
  const app = state.applicationId;
  const appOnly = (id: string | undefined, act: () => RestResult) => (id === app ? act() : Errors.unknownApplication());
  return [
    { method: 'GET', pattern: /^\/gateway\/bot$/, auth: 'bot', handle: () => ok(gatewayBot(state)) },
    { method: 'GET', pattern: /^\/gateway$/, auth: 'none', handle: () => ok({ url: gatewayUrl(state) }) },
    { method: 'GET', pattern: /^\/users\/@me$/, auth: 'bot', handle: () => ok(state.botUser) },
    {
      method: 'GET',
      pattern: /^\/users\/(\d+)$/,
      auth: 'bot',
      handle: (_r, [id = '']) => {
        const user = state.findUser(id);
        return user ? ok(userJson(user)) : id === state.applicationId ? ok(state.botUser) : Errors.unknownUser();
      },
    },
    { method: 'GET', pattern: /^\/applications\/@me$/, auth: 'bot', handle: () => ok(applicationJson(state)) },
    {
      method: 'GET',
      pattern: /^\/applications\/(\d+)\/commands$/,
      auth: 'bot',
      handle: (req, [id]) => appOnly(id, () => ok(state.commands.list('global', withLocalizations(req)))),
    },
    {
      method: 'PUT',
      pattern: /^\/applications\/(\d+)\/commands$/,
      auth: 'bot',
      handle: (req, [id]) => appOnly(id, () => overwrite(state, 'global', commandsBody(req))),
    },
    {
      method: 'GET',
      pattern: /^\/applications\/(\d+)\/guilds\/(\d+)\/commands$/,
      auth: 'bot',
      handle: (req, [id, guild = '']) =>
        appOnly(id, () => (knownGuild(state, guild) ? ok(state.commands.list(guild, withLocalizations(req))) : Errors.unknownGuild())),
    },
    {
      method: 'PUT',
      pattern: /^\/applications\/(\d+)\/guilds\/(\d+)\/commands$/,
      auth: 'bot',
      handle: (req, [id, guild = '']) => appOnly(id, () => (knownGuild(state, guild) ? overwrite(state, guild, commandsBody(req)) : Errors.unknownGuild())),
    },
    {
      method: 'GET',
      pattern: /^\/channels\/(\d+)$/,
      auth: 'bot',
      handle: (_r, [id = '']) => {
        const channel = state.channelJson(id);
        return channel ? ok(channel) : Errors.unknownChannel();
      },
    },
    {
      method: 'POST',
      pattern: /^\/channels\/(\d+)\/messages$/,
      auth: 'bot',
      handle: (req, [id = '']) => postChannelMessage(state, req, id),
      record: (req, [id = ''], result) => (state.isDmChannel(id) ? state.dmPosts : state.channelPosts).push(toRecorded(req, result)),
    },
    {
      method: 'GET',
      pattern: /^\/channels\/(\d+)\/messages\/(\d+)$/,
      auth: 'bot',
      handle: (_r, [channel, id = '']) => {
        const message = state.messages.messages.get(id);
        return message && message.channel_id === channel ? ok(state.served(message)) : Errors.unknownMessage();
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/channels\/(\d+)\/messages\/(\d+)$/,
      auth: 'bot',
      handle: (_r, [channel, id = '']) =>
        state.messages.messages.get(id)?.channel_id === channel && state.messages.delete(id) ? { status: 204 } : Errors.unknownMessage(),
    },
    {
      method: 'POST',
      pattern: /^\/users\/@me\/channels$/,
      auth: 'bot',
      handle: (req) => {
        const user = state.findUser(String((req.payload as { recipient_id?: unknown } | undefined)?.recipient_id));
        return user ? ok(state.dmChannelFor(user)) : Errors.invalidForm(['recipient_id'], 'USER_NOT_FOUND', 'Unknown user.');
      },
    },
  ];
}

function postChannelMessage(state: EmulatorState, req: RestRequest, channelId: string): RestResult {
  if (!state.channelJson(channelId)) return Errors.unknownChannel();
  if (state.deniedChannels.has(channelId)) return Errors.missingPermissions();
  const payload = messageBody(req);
  const rejected = checkMessage(payload, req.files, state.options.attachmentSizeLimit);
  if (rejected) return rejected;
  if (isEmptyMessage(payload, req.files)) return Errors.emptyMessage();
  const guildId = state.guildOf(channelId)?.id;
  const created = state.messages.create({
    channelId,
    payload,
    files: req.files,
    author: state.botUser,
    type: 0,
    flags: payload?.flags ?? 0,
    extra: guildId === undefined ? {} : { guild_id: guildId },
  });
  return 'id' in created ? { status: 200, body: state.served(created) } : created;
}

/** GET …/commands returns the localization dictionaries only when asked (`with_localizations=true`), as Discord does. */
function withLocalizations(req: RestRequest): boolean {
  return req.query.get('with_localizations') === 'true';
}

/**
 * A bulk overwrite, refused as Discord refuses `file_types` it does not take, more commands of a type than it holds
 * (30032), and context menus it would not register.
 */
function overwrite(state: EmulatorState, scope: string, body: Record<string, unknown>[]): RestResult {
  const problem = fileTypesProblem(body);
  if (problem) return Errors.invalidForm(problem, 'BASE_TYPE_BAD_VALUE', 'file_types takes at most 10 entries: image, video, audio or .ext.');
  const refused = commandsProblem(body);
  if (refused?.kind === 'count') return Errors.invalidBody(30032, `Maximum number of application commands reached (${refused.limit})`);
  if (refused) return Errors.invalidForm(refused.path, refused.code, refused.message);
  return { status: 200, body: state.commands.overwrite(scope, body) };
}

/** A bulk-overwrite body (PUT .../commands): a list of command definitions, typed at this boundary. */
function commandsBody(req: RestRequest): Record<string, unknown>[] {
  return req.payload as Record<string, unknown>[];
}

export function gatewayUrl(state: EmulatorState): string {
  return `${state.baseUrl.replace(/^http/, 'ws')}/gateway`;
}

/** GET /gateway/bot: the URL, the recommended shard count (`shards: 'auto'` uses it) and the identify concurrency. */
function gatewayBot(state: EmulatorState): unknown {
  const { recommendedShards, maxConcurrency } = state.options;
  return {
    url: gatewayUrl(state),
    shards: recommendedShards,
    session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: maxConcurrency },
  };
}

function knownGuild(state: EmulatorState, id: string): boolean {
  return state.guilds.some((g) => g.id === id);
}

function applicationJson(state: EmulatorState): unknown {
  return {
    id: state.applicationId,
    name: 'imagine-bot',
    icon: null,
    description: 'Emulated application',
    summary: '',
    type: null,
    bot_public: true,
    bot_require_code_grant: false,
    verify_key: '0'.repeat(64),
    flags: 0,
    team: null,
    owner: { id: state.fixtures.users.owner.id, username: 'owner', discriminator: '0', global_name: 'Owner', avatar: null, flags: 0 },
    bot: state.botUser,
  };
}
