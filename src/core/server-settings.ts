/**
 * A server's settings (issue 17), as admins set them with /settings: defaults for requests that name none, the
 * models members may use and the most images per request, where generation is allowed, whether previews are on,
 * prompt help, the describes cap, cost confirmation, priority perks, the audit channel, the showcase channel and drafts. The vocabulary: the rules they impose on a
 * job are src/service/server-settings.ts's.
 */
import { z } from 'zod';
import { GenerateRequest, IMAGE_FORMATS, IMAGE_QUALITIES, MAX_IMAGES_PER_REQUEST, MAX_MODEL_NAME_LENGTH } from './image-request.js';
import { SizeSchema } from './sizes.js';

const Snowflake = z.string().regex(/^\d{17,20}$/);

/** Where members may generate: everywhere, only in the listed channels, or everywhere but them. */
export const CHANNEL_MODES = ['everywhere', 'only', 'except'] as const;
export type ChannelMode = (typeof CHANNEL_MODES)[number];

/** Where `moderation:low` is allowed: nowhere, in age-restricted channels (and to admins), or to chosen roles anywhere. */
export const NSFW_MODES = ['nowhere', 'age-restricted', 'roles'] as const;

/** The highest describes cap an admin can set per member and period. */
export const MAX_DESCRIBES_PER_PERIOD = 1000;

/** Channels listed at most. */
export const MAX_LISTED_CHANNELS = 25;

/** The queue lanes (issue 32): the priority lane starts first, the normal lane keeps a bounded share (member-perks.ts). */
export const LANES = ['priority', 'normal'] as const;
export type Lane = (typeof LANES)[number];

/** Roles with perks at most. */
export const MAX_PERK_ROLES = 10;
/** The largest quota or money multiplier. */
export const MAX_MULTIPLIER = 10;

const Multiplier = z.int().min(1).max(MAX_MULTIPLIER);

/** What the server gives boosters or a role: a lane, and multipliers of the quota and money limits that apply. */
export const Perk = z.object({ lane: z.enum(LANES), quotaMultiplier: Multiplier, moneyMultiplier: Multiplier });
export type Perk = z.infer<typeof Perk>;

/** The perks admins give (issue 32): to the server's boosters, and to up to {@link MAX_PERK_ROLES} roles. */
export const PrioritySettings = z.object({
  boosters: Perk.optional(),
  roles: z.array(Perk.extend({ roleId: Snowflake })).max(MAX_PERK_ROLES),
});
export type PrioritySettings = z.infer<typeof PrioritySettings>;

/** Version 1 of a server's settings; every field has its default, so a server without a record reads as defaults. */
export const ServerSettings = z.object({
  v: z.literal(1).default(1),
  /** Applied when a member gives none (the member's own choice wins, within what is allowed). */
  defaults: z
    .object({
      model: z.string().min(1).max(MAX_MODEL_NAME_LENGTH).optional(),
      size: GenerateRequest.shape.size,
      quality: z.enum(IMAGE_QUALITIES).optional(),
      outputFormat: z.enum(IMAGE_FORMATS).optional(),
    })
    .default({}),
  /** The models members may ask for; empty: every model the gateway lists. Admins are not bound by it. */
  allowedModels: z.array(z.string().min(1).max(MAX_MODEL_NAME_LENGTH)).max(25).default([]),
  /** The most images per request for members; absent: the bot's own limit. Admins are not bound by it. */
  maxCount: z.int().min(1).max(MAX_IMAGES_PER_REQUEST).optional(),
  /** The largest size members may ask for (by pixels); absent: any. Admins are not bound by it. */
  maxSize: SizeSchema.optional(),
  /** The highest quality members may ask for ({@link QUALITY_ORDER}); absent: any. Admins are not bound by it. */
  maxQuality: z.enum(IMAGE_QUALITIES).optional(),
  channels: z.object({ mode: z.enum(CHANNEL_MODES), ids: z.array(Snowflake).max(MAX_LISTED_CHANNELS) }).default({ mode: 'everywhere', ids: [] }),
  /** Who may use `moderation:low`, and where (NSFW_MODES); roles for `roles`. */
  nsfw: z.object({ mode: z.enum(NSFW_MODES), roleIds: z.array(Snowflake).max(MAX_LISTED_CHANNELS) }).default({ mode: 'age-restricted', roleIds: [] }),
  /** Channels (and their threads) where results are posted as spoilers. */
  spoilerChannelIds: z.array(Snowflake).max(MAX_LISTED_CHANNELS).default([]),
  /** Streamed partial images while generating: each costs the operator extra output tokens. */
  previews: z.boolean().default(true),
  /** Prompt help (enhance and describe, from the gateway's chat models) for this server's members. */
  promptHelp: z.boolean().default(true),
  /** The most describes a member may ask per period (describe-cap.ts); absent: no cap, 0: none. */
  describeLimit: z.object({ count: z.int().min(0).max(MAX_DESCRIBES_PER_PERIOD), period: z.enum(['day', 'week', 'month']) }).optional(),
  /** Members confirm a request whose estimated cost (cost-estimate.ts) is above this many USD; absent: never asked. */
  confirmAboveUsd: z.number().nonnegative().max(10_000).optional(),
  /** Priority lanes and limit multipliers for boosters and chosen roles (member-perks.ts). */
  priority: PrioritySettings.default({ roles: [] }),
  /** Where every job and every change of these settings is told (audit-trail.ts); absent: nowhere. */
  auditChannelId: Snowflake.optional(),
  /** Where a result is posted the first time a member stars it (issue 32); absent: no showcase. */
  showcaseChannelId: Snowflake.optional(),
  /**
   * Where requests that name no quality are made at the model's cheapest (drafts.ts), before the default quality:
   * everywhere, or in the listed channels (and their threads). Cards of drafts offer HD.
   */
  drafts: z.object({ everywhere: z.boolean(), channelIds: z.array(Snowflake).max(MAX_LISTED_CHANNELS) }).default({ everywhere: false, channelIds: [] }),
  /** Who changed them last, and when (ms since epoch). */
  updatedBy: Snowflake.optional(),
  updatedAt: z.number().optional(),
});
export type ServerSettings = z.infer<typeof ServerSettings>;

/** The settings of a server that has none. */
export const DEFAULT_SETTINGS: ServerSettings = ServerSettings.parse({});
