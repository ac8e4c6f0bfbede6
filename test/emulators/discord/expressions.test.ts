/**
 * The emulator's emoji and sticker routes (issue 32), through discord.js's REST client: each of Discord's rules refuses
 * what breaks it, and what keeps them all is created with the image it was given.
 */
import { DiscordAPIError, REST, Routes } from 'discord.js';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CREATE_GUILD_EXPRESSIONS, type DiscordEmulator, startDiscordEmulator } from './index.js';
import { Permissions } from './fixtures.js';

let emulator: DiscordEmulator;
let rest: REST;

beforeAll(async () => {
  emulator = await startDiscordEmulator({ log: false });
  rest = new REST({ api: emulator.apiUrl, retries: 0 }).setToken(emulator.token);
});

afterAll(async () => {
  await (emulator as DiscordEmulator | undefined)?.close();
});

// The refusals below break the spec too (a name too short or too long): each test judges only its own requests.
beforeEach(() => {
  emulator.specViolations.length = 0;
});

const png = (side: number, noise = false) =>
  noise
    ? sharp(Buffer.from(Array.from({ length: side * side * 3 }, (_, i) => (i * 2654435761) % 251)), { raw: { width: side, height: side, channels: 3 } })
        .png({ compressionLevel: 0 })
        .toBuffer()
    : sharp({ create: { width: side, height: side, channels: 4, background: '#3366ff' } })
        .png()
        .toBuffer();
const dataUri = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

/** The Discord error code of a refused request. */
async function codeOf(request: Promise<unknown>): Promise<number | string> {
  try {
    await request;
  } catch (err) {
    if (err instanceof DiscordAPIError) return err.code;
    throw err;
  }
  throw new Error('expected Discord to refuse the request');
}

describe('POST /guilds/{id}/emojis', () => {
  let guildId: string;
  beforeEach(() => {
    guildId = emulator.fixtures.guild.id;
    emulator.setBotPermissions(guildId, Permissions.everyone | CREATE_GUILD_EXPRESSIONS);
  });
  const post = (body: { name: string; image: string }) => rest.post(Routes.guildEmojis(guildId), { body, reason: 'a test' });

  it('creates an emoji of 128x128 at most 256 KiB, keeping its image and the audit log reason', async () => {
    const image = await png(128);
    const created = (await post({ name: 'blue_square', image: dataUri(image) })) as { id: string; name: string };
    expect(created.name).toBe('blue_square');
    const kept = emulator.guildEmojis(guildId).find((e) => e.id === created.id);
    expect(kept).toMatchObject({ name: 'blue_square', width: 128, height: 128, format: 'png', reason: 'a test' });
    expect(kept?.bytes.equals(image)).toBe(true);
    expect(emulator.specViolations).toEqual([]);
  });

  it('refuses without CREATE_GUILD_EXPRESSIONS (Manage Expressions alone no longer does since 2026-02-23); Administrator may', async () => {
    emulator.setBotPermissions(guildId, Permissions.everyone | (1n << 30n));
    expect(await codeOf(post({ name: 'nope', image: dataUri(await png(64)) }))).toBe(50013);
    emulator.setBotPermissions(guildId, Permissions.everyone | (1n << 3n));
    await expect(post({ name: 'admin_may', image: dataUri(await png(64)) })).resolves.toMatchObject({ name: 'admin_may' });
  });

  it('refuses a bad name, an image over 128x128, over 256 KiB, or not an image', async () => {
    const small = dataUri(await png(64));
    expect(await codeOf(post({ name: 'has space', image: small }))).toBe(50035);
    expect(await codeOf(post({ name: 'x', image: small }))).toBe(50035);
    expect(await codeOf(post({ name: 'a'.repeat(33), image: small }))).toBe(50035);
    expect(await codeOf(post({ name: 'too_wide', image: dataUri(await png(129)) }))).toBe(50035);
    const heavy = await png(300, true);
    expect(heavy.length).toBeGreaterThan(256 * 1024);
    expect(await codeOf(post({ name: 'too_heavy', image: dataUri(heavy) }))).toBe(50035);
    expect(await codeOf(post({ name: 'not_image', image: `data:image/png;base64,${Buffer.from('hello').toString('base64')}` }))).toBe(50035);
  });

  it('refuses in a server the bot is not in', async () => {
    const other = '1' + '0'.repeat(18);
    expect(await codeOf(rest.post(Routes.guildEmojis(other), { body: { name: 'lost', image: dataUri(await png(64)) } }))).toBe(10004);
  });
});

describe('POST /guilds/{id}/stickers', () => {
  let guildId: string;
  beforeEach(() => {
    guildId = emulator.fixtures.otherGuild.id;
    emulator.setBotPermissions(guildId, Permissions.everyone | CREATE_GUILD_EXPRESSIONS);
  });
  const post = async (fields: { name: string; tags: string; description: string }, file?: Buffer) =>
    rest.post(Routes.guildStickers(guildId), {
      appendToFormData: true,
      body: fields,
      files: [{ key: 'file', name: 'sticker.png', data: file ?? (await png(320)), contentType: 'image/png' }],
    });

  it('creates a sticker from a 320x320 PNG with its name, tags and description', async () => {
    const created = (await post({ name: 'Blue square', tags: 'blue_square', description: '' })) as { id: string; format_type: number };
    expect(created.format_type).toBe(1);
    expect(emulator.guildStickers(guildId).find((s) => s.id === created.id)).toMatchObject({ name: 'Blue square', tags: 'blue_square', width: 320 });
    expect(emulator.specViolations).toEqual([]);
  });

  it('refuses a bad name, missing tags, a one-character description, another size, or no permission', async () => {
    expect(await codeOf(post({ name: 'x', tags: 'tag', description: '' }))).toBe(50035);
    expect(await codeOf(post({ name: 'Good', tags: '', description: '' }))).toBe(50035);
    expect(await codeOf(post({ name: 'Good', tags: 'tag', description: 'x' }))).toBe(50035);
    expect(await codeOf(post({ name: 'Good', tags: 'tag', description: '' }, await png(256)))).toBe(50035);
    emulator.setBotPermissions(guildId, Permissions.everyone);
    expect(await codeOf(post({ name: 'Good', tags: 'tag', description: '' }))).toBe(50013);
  });

  it('has five sticker slots at boost tier 0', async () => {
    const guild = emulator.fixtures.guild.id;
    emulator.setBotPermissions(guild, Permissions.everyone | CREATE_GUILD_EXPRESSIONS);
    const add = async () =>
      rest.post(Routes.guildStickers(guild), {
        appendToFormData: true,
        body: { name: 'Slot', tags: 'slot', description: '' },
        files: [{ key: 'file', name: 'sticker.png', data: await png(320), contentType: 'image/png' }],
      });
    for (let i = emulator.guildStickers(guild).length; i < 5; i++) await add();
    expect(await codeOf(add())).toBe(30039);
  });
});
