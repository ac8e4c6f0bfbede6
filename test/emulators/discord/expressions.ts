/**
 * A server's custom emoji and stickers (issue 32): POST /guilds/{id}/emojis (JSON, the image as a data URI) and POST
 * /guilds/{id}/stickers (multipart: name, tags, description, file), enforcing Discord's rules:
 * - the bot needs CREATE_GUILD_EXPRESSIONS (1 << 43) in the server, or Administrator (since 2026-02-23 Manage
 *   Expressions alone no longer does): 403 50013;
 * - an emoji's name is 2–32 letters, digits or underscores; its image a PNG, JPEG, GIF, WebP or AVIF data URI of at
 *   most 256 KiB, and (the emulator's stricter rule, the size the bot makes) at most 128×128 pixels;
 * - a sticker's name is 2–30 characters, its tags 2–200 (required), its description empty or 2–100; its file a PNG
 *   or GIF of at most 512 KiB and exactly 320×320 pixels;
 * - slots at boost tier 0: 50 static emoji (30008), 5 stickers (30039).
 * Created ones are kept with their bytes for tests to read.
 * @see https://discord.com/developers/docs/resources/emoji#create-guild-emoji
 * @see https://discord.com/developers/docs/resources/sticker#create-guild-sticker
 */
import sharp from 'sharp';
import { Permissions } from './fixtures.js';
import type { RestRequest, Route } from './http.js';
import { Errors, type RestResult } from './rules.js';
import type { EmulatorState } from './state.js';

/** Discord's CREATE_GUILD_EXPRESSIONS and ADMINISTRATOR permission bits. */
export const CREATE_GUILD_EXPRESSIONS = 1n << 43n;
const ADMINISTRATOR = 1n << 3n;

const KIB = 1024;
const EMOJI_MAX_BYTES = 256 * KIB;
const EMOJI_MAX_SIDE = 128;
const STICKER_MAX_BYTES = 512 * KIB;
const STICKER_SIDE = 320;
/** Slots of a server at boost tier 0. */
const EMOJI_SLOTS = 50;
const STICKER_SLOTS = 5;

/** An emoji or sticker a server has, with the image it was given. */
export interface CreatedExpression {
  id: string;
  name: string;
  /** Stickers only. */
  tags?: string | undefined;
  description?: string | undefined;
  bytes: Buffer;
  format: string;
  width: number;
  height: number;
  /** The X-Audit-Log-Reason it came with. */
  reason: string | undefined;
}

/** The servers' emoji and stickers, and the bot's permissions in each server. */
export class ExpressionStore {
  readonly emojis = new Map<string, CreatedExpression[]>();
  readonly stickers = new Map<string, CreatedExpression[]>();
  private readonly botPermissions = new Map<string, bigint>();

  /** The bot's permissions in `guildId` (its interactions' `app_permissions`): @everyone's unless a test set them. */
  botPermissionsIn(guildId: string): bigint {
    return this.botPermissions.get(guildId) ?? Permissions.everyone;
  }

  setBotPermissions(guildId: string, bits: bigint): void {
    this.botPermissions.set(guildId, bits);
  }

  emojisOf(guildId: string): CreatedExpression[] {
    return this.emojis.get(guildId) ?? [];
  }

  stickersOf(guildId: string): CreatedExpression[] {
    return this.stickers.get(guildId) ?? [];
  }
}

/** The two routes. */
export function expressionRoutes(state: EmulatorState): Route[] {
  return [
    { method: 'POST', pattern: /^\/guilds\/(\d+)\/emojis$/, auth: 'bot', handle: (req, [guildId = '']) => createEmoji(state, req, guildId) },
    { method: 'POST', pattern: /^\/guilds\/(\d+)\/stickers$/, auth: 'bot', handle: (req, [guildId = '']) => createSticker(state, req, guildId) },
  ];
}

/** The checks both routes start with: a server the bot is in, where it may create expressions. */
function refusedHere(state: EmulatorState, guildId: string): RestResult | undefined {
  if (!state.guilds.some((g) => g.id === guildId)) return Errors.unknownGuild();
  const bits = state.expressions.botPermissionsIn(guildId);
  if ((bits & (CREATE_GUILD_EXPRESSIONS | ADMINISTRATOR)) === 0n) return Errors.missingPermissions();
  return undefined;
}

async function createEmoji(state: EmulatorState, req: RestRequest, guildId: string): Promise<RestResult> {
  const refused = refusedHere(state, guildId);
  if (refused) return refused;
  const body = (req.payload ?? {}) as { name?: unknown; image?: unknown };
  const name = typeof body.name === 'string' ? body.name : '';
  if (!/^[A-Za-z0-9_]{2,32}$/.test(name)) return Errors.invalidForm(['name'], 'BASE_TYPE_BAD_LENGTH', 'Must be 2–32 alphanumeric characters or underscores.');
  const uri = /^data:image\/(png|jpeg|gif|webp|avif);base64,([A-Za-z0-9+/=]+)$/.exec(typeof body.image === 'string' ? body.image : '');
  if (!uri) return Errors.invalidForm(['image'], 'IMAGE_INVALID', 'Invalid image data.');
  const bytes = Buffer.from(uri[2] ?? '', 'base64');
  if (bytes.length > EMOJI_MAX_BYTES) return Errors.invalidForm(['image'], 'BINARY_TYPE_MAX_SIZE', 'File cannot be larger than 256.0 kb.');
  const image = await imageOf(bytes);
  if (!image) return Errors.invalidForm(['image'], 'IMAGE_INVALID', 'Invalid image data.');
  if (image.width > EMOJI_MAX_SIDE || image.height > EMOJI_MAX_SIDE)
    return Errors.invalidForm(['image'], 'IMAGE_TOO_LARGE', `Emoji must be ${EMOJI_MAX_SIDE}x${EMOJI_MAX_SIDE} or smaller.`);
  const list = state.expressions.emojis.get(guildId) ?? [];
  if (list.length >= EMOJI_SLOTS) return { status: 400, body: { message: `Maximum number of emojis reached (${EMOJI_SLOTS})`, code: 30008 } };
  const created: CreatedExpression = { id: state.ids.next(), name, bytes, ...image, reason: reasonOf(req) };
  state.expressions.emojis.set(guildId, [...list, created]);
  return {
    status: 201,
    body: { id: created.id, name, roles: [], user: state.botUser, require_colons: true, managed: false, animated: image.format === 'gif', available: true },
  };
}

async function createSticker(state: EmulatorState, req: RestRequest, guildId: string): Promise<RestResult> {
  const refused = refusedHere(state, guildId);
  if (refused) return refused;
  const body = (req.payload ?? {}) as { name?: unknown; tags?: unknown; description?: unknown };
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const [name, tags, description] = [text(body.name), text(body.tags), text(body.description)];
  if (name.length < 2 || name.length > 30) return Errors.invalidForm(['name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 2 and 30 in length.');
  if (tags.length < 2 || tags.length > 200) return Errors.invalidForm(['tags'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 2 and 200 in length.');
  if (description.length === 1 || description.length > 100)
    return Errors.invalidForm(['description'], 'BASE_TYPE_BAD_LENGTH', 'Must be empty or between 2 and 100 in length.');
  const file = req.files.find((f) => f.field === 'file');
  if (!file) return Errors.invalidForm(['file'], 'BASE_TYPE_REQUIRED', 'This field is required');
  if (file.bytes.length > STICKER_MAX_BYTES) return Errors.invalidForm(['file'], 'BINARY_TYPE_MAX_SIZE', 'File cannot be larger than 512.0 kb.');
  const image = await imageOf(file.bytes);
  if (!image || (image.format !== 'png' && image.format !== 'gif')) return Errors.invalidForm(['file'], 'STICKER_INVALID_FORMAT', 'Invalid sticker file.');
  if (image.width !== STICKER_SIDE || image.height !== STICKER_SIDE)
    return Errors.invalidForm(['file'], 'STICKER_INVALID_DIMENSIONS', `Sticker must be ${STICKER_SIDE}x${STICKER_SIDE}.`);
  const list = state.expressions.stickers.get(guildId) ?? [];
  if (list.length >= STICKER_SLOTS) return { status: 400, body: { message: 'Maximum number of stickers reached', code: 30039 } };
  const created: CreatedExpression = { id: state.ids.next(), name, tags, description, bytes: file.bytes, ...image, reason: reasonOf(req) };
  state.expressions.stickers.set(guildId, [...list, created]);
  return {
    status: 201,
    body: {
      id: created.id,
      name,
      tags,
      type: 2,
      format_type: image.format === 'gif' ? 4 : 1,
      description,
      available: true,
      guild_id: guildId,
      user: state.botUser,
    },
  };
}

/** The image's format and size from its header; undefined when it is no image. */
async function imageOf(bytes: Buffer): Promise<{ format: string; width: number; height: number } | undefined> {
  try {
    const meta = await sharp(bytes).metadata();
    return { format: meta.format, width: meta.width, height: meta.height };
  } catch {
    return undefined;
  }
}

function reasonOf(req: RestRequest): string | undefined {
  const reason = req.headers['x-audit-log-reason'];
  return typeof reason === 'string' ? decodeURIComponent(reason) : undefined;
}
