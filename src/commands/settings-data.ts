/**
 * /settings' registration data (Manage Server, servers only). Subcommands rather than one panel of menus and
 * modals: each change is one line an admin can type, read back in the channel's history and repeat, Discord checks
 * each option's type (channels, counts) before it reaches us, and every change is answered with what it was and
 * what it is now.
 */
import { ApplicationCommandOptionType, ApplicationCommandType, ChannelType, type APIApplicationCommandChannelOption } from 'discord.js';
import { IMAGE_FORMATS, IMAGE_QUALITIES, MAX_IMAGES_PER_REQUEST, MAX_MODEL_NAME_LENGTH } from '../core/image-request.js';
import { QUALITY_ORDER } from '../core/drafts.js';
import { CHANNEL_MODES, LANES, MAX_DESCRIBES_PER_PERIOD, MAX_LISTED_CHANNELS, MAX_MULTIPLIER, NSFW_MODES } from '../core/server-settings.js';
import { PERIOD_CHOICES, SERVER_ADMIN_ONLY } from './server-admin.js';
import { chatInputData } from './option-reader.js';

/** The role options of `/settings nsfw`. */
export const ROLE_OPTIONS = ['role1', 'role2', 'role3'] as const;

/** The channel options of `/settings channels` and `spoilers`. */
export const CHANNEL_OPTIONS = ['channel1', 'channel2', 'channel3', 'channel4', 'channel5'] as const;

const choices = <const V extends string>(values: readonly V[]) => values.map((value) => ({ name: value, value }));

/** The channels a setting may list: text, announcement, forum and voice channels (their threads follow them). */
const LISTED_CHANNEL_TYPES = [
  ChannelType.GuildText,
  ChannelType.GuildAnnouncement,
  ChannelType.GuildForum,
  ChannelType.GuildVoice,
] satisfies APIApplicationCommandChannelOption['channel_types'];

/** channel1…channel5: the channels a setting lists (text, announcement, forum and voice channels, whose threads follow them). */
const channelOptions = (description: string) =>
  CHANNEL_OPTIONS.map((name) => ({
    type: ApplicationCommandOptionType.Channel as const,
    name,
    description,
    channel_types: LISTED_CHANNEL_TYPES,
  }));

/** The definition the settings table (settings.ts) reads each subcommand's options by. */
export const SETTINGS_DATA = chatInputData({
  type: ApplicationCommandType.ChatInput,
  name: 'settings',
  description: 'How members may use the bot on this server (Manage Server)',
  ...SERVER_ADMIN_ONLY,
  options: [
    { type: ApplicationCommandOptionType.Subcommand, name: 'show', description: "This server's settings" },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'defaults',
      description: 'What a request uses when the member gives none (their own choice wins)',
      options: [
        { type: ApplicationCommandOptionType.String, name: 'model', description: 'Default model', max_length: MAX_MODEL_NAME_LENGTH },
        { type: ApplicationCommandOptionType.String, name: 'size', description: 'Default size (auto or WIDTHxHEIGHT)', max_length: 20 },
        { type: ApplicationCommandOptionType.String, name: 'quality', description: 'Default quality', choices: choices(IMAGE_QUALITIES) },
        { type: ApplicationCommandOptionType.String, name: 'format', description: 'Default file format', choices: choices(IMAGE_FORMATS) },
        { type: ApplicationCommandOptionType.Boolean, name: 'clear', description: 'Forget the defaults first' },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'models',
      description: 'The models members may use (admins may use any)',
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: 'allowed',
          description: 'Model names separated by commas, or "all"',
          required: true,
          max_length: 1000,
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'max-count',
      description: 'The most images a member may ask for at once (admins are not bound)',
      options: [
        {
          type: ApplicationCommandOptionType.Integer,
          name: 'count',
          description: `1–${MAX_IMAGES_PER_REQUEST}; 0 for the bot's own limit (${MAX_IMAGES_PER_REQUEST})`,
          required: true,
          min_value: 0,
          max_value: MAX_IMAGES_PER_REQUEST,
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'max-size',
      description: 'The largest size a member may ask for, by pixels (admins are not bound)',
      options: [{ type: ApplicationCommandOptionType.String, name: 'size', description: 'WIDTHxHEIGHT, or "any"', required: true, max_length: 20 }],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'max-quality',
      description: 'The highest quality a member may ask for (admins are not bound)',
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: 'quality',
          description: 'low < medium < standard < high < hd < xhigh < max, or any',
          required: true,
          choices: choices(['any', ...QUALITY_ORDER.filter((q) => q !== 'auto')]),
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'channels',
      description: 'Where images can be made (threads follow their channel)',
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: 'mode',
          description: 'everywhere, only the channels given, or all but them',
          required: true,
          choices: choices(CHANNEL_MODES),
        },
        ...channelOptions('A channel for the list'),
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'nsfw',
      description: 'Who may use moderation:low, and where',
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: 'mode',
          description: 'nowhere, age-restricted channels (default), or the roles given',
          required: true,
          choices: choices(NSFW_MODES),
        },
        ...ROLE_OPTIONS.map((name) => ({ type: ApplicationCommandOptionType.Role as const, name, description: 'A role that may use it anywhere' })),
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'spoilers',
      description: 'Channels whose results are posted as spoilers (none given: nowhere)',
      options: channelOptions('A channel whose results are spoilers'),
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'audit',
      description: 'A channel that gets one line per job and per settings change',
      options: [
        {
          type: ApplicationCommandOptionType.Channel,
          name: 'channel',
          description: 'The audit channel (leave out to turn the audit off)',
          channel_types: [ChannelType.GuildText] satisfies APIApplicationCommandChannelOption['channel_types'],
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'showcase',
      description: 'A channel where a result is posted the first time a member stars it',
      options: [
        {
          type: ApplicationCommandOptionType.Channel,
          name: 'channel',
          description: 'The showcase channel (leave out to turn the showcase off)',
          channel_types: [ChannelType.GuildText, ChannelType.GuildAnnouncement] satisfies APIApplicationCommandChannelOption['channel_types'],
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'drafts',
      description: 'Requests naming no quality are made at the cheapest; the HD button remakes one at high quality',
      options: [
        { type: ApplicationCommandOptionType.Boolean, name: 'enabled', description: 'On or off (off by default)', required: true },
        {
          type: ApplicationCommandOptionType.Channel,
          name: 'channel',
          description: `Only this channel (added to or taken off the list, at most ${MAX_LISTED_CHANNELS}); leave out for the whole server`,
          channel_types: LISTED_CHANNEL_TYPES,
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'previews',
      description: 'Early previews while generating; each preview costs extra output tokens',
      options: [{ type: ApplicationCommandOptionType.Boolean, name: 'enabled', description: 'On (the default) or off', required: true }],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'prompt-help',
      description: 'Prompt help (enhance and /describe) from the chat models, where the bot has them',
      options: [
        { type: ApplicationCommandOptionType.Boolean, name: 'enabled', description: 'On (the default) or off', required: true },
        {
          type: ApplicationCommandOptionType.Integer,
          name: 'describes',
          description: 'Describes each member may ask per period (0: none); leave out for no cap',
          min_value: 0,
          max_value: MAX_DESCRIBES_PER_PERIOD,
        },
        {
          type: ApplicationCommandOptionType.String,
          name: 'period',
          description: 'Day, week or month (UTC) of the describes cap; day by default',
          choices: PERIOD_CHOICES,
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'priority',
      description: 'Give server boosters or a role a priority lane and larger limits (what is left out: none)',
      options: [
        { type: ApplicationCommandOptionType.Role, name: 'role', description: 'The role whose perks these are' },
        { type: ApplicationCommandOptionType.Boolean, name: 'boosters', description: 'True: these are the perks of server boosters' },
        {
          type: ApplicationCommandOptionType.String,
          name: 'lane',
          description: 'priority: their jobs start first (others keep a quarter of the starts); normal by default',
          choices: choices(LANES),
        },
        {
          type: ApplicationCommandOptionType.Integer,
          name: 'quota-multiplier',
          description: 'Multiplies their image limit (1 by default)',
          min_value: 1,
          max_value: MAX_MULTIPLIER,
        },
        {
          type: ApplicationCommandOptionType.Integer,
          name: 'money-multiplier',
          description: 'Multiplies their money limit (1 by default)',
          min_value: 1,
          max_value: MAX_MULTIPLIER,
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'confirm-cost',
      description: 'Members confirm requests estimated above a cost; leave usd out to stop asking',
      options: [
        {
          type: ApplicationCommandOptionType.Number,
          name: 'usd',
          description: 'Ask above this estimated cost in US dollars (0: ask for every priced request)',
          min_value: 0,
          max_value: 10_000,
        },
      ],
    },
  ],
});
