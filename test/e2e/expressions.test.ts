/**
 * Make emoji and Make sticker (issue 32), end to end: a result's image becomes a server emoji Discord accepts (the
 * emulator checks 128×128 or smaller and 256 KiB at most; a sticker 320×320 PNG at most 512 KiB), named in a modal;
 * without Create Expressions, the member's or the bot's, it is refused with the reason and nothing reaches Discord;
 * a name Discord would refuse is refused with a friendly reason, in the member's language.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CREATE_GUILD_EXPRESSIONS, type EmulatedMessage, type InteractionHandle, type UserFixture } from '../emulators/discord/index.js';
import { Permissions } from '../emulators/discord/fixtures.js';
import { startHarness, type Harness } from './harness.js';
import { customIds, ephemeralError, resultPost, textOf } from './support.js';

/** The member's permissions with Create Expressions, or without it (@everyone's). */
const CAN_CREATE = (Permissions.everyone | CREATE_GUILD_EXPRESSIONS).toString();
const CANNOT_CREATE = Permissions.everyone.toString();

describe('Make emoji and Make sticker', () => {
  let h: Harness;
  let card: EmulatedMessage;
  beforeAll(async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '50', LOG_LEVEL: 'debug' } });
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'a lighthouse at dusk, oil painting' }], { user: h.discord.fixtures.member });
    await handle.waitFor((x) => resultPost(x) !== undefined);
    // The card's buttons work once the job is archived, after it is posted.
    await h.waitForLog((e) => e['interactionId'] === handle.id && e.msg === 'interaction handled');
    card = handle.lastMessage()!;
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });
  beforeEach(() => {
    h.discord.setBotPermissions(h.discord.fixtures.guild.id, Permissions.everyone | CREATE_GUILD_EXPRESSIONS);
  });

  const guildId = () => h.discord.fixtures.guild.id;
  const expressionPosts = () => h.discord.requests.filter((r) => r.method === 'POST' && /^\/guilds\/\d+\/(emojis|stickers)$/.test(r.path));
  /** The member's answer: an ephemeral reply to the click, or the edit of the modal's ephemeral deferral. */
  const answered = (x: InteractionHandle) => x.acks.some((a) => a.type === 4 || a.type === 9) || x.edits.some((e) => e.status === 200);
  const answerOf = (x: InteractionHandle) => ephemeralError(x) ?? textOf(x.edits.filter((e) => e.status === 200).at(-1)?.payload);

  const click = async (code: string, user: UserFixture, memberPermissions: string, locale?: string) => {
    const id = customIds(card).find((c) => c.endsWith(`:${code}`));
    expect(id, `button ${code}`).toBeDefined();
    const handle = h.discord.button(card, id!, { user, memberPermissions, locale });
    await handle.waitFor(answered);
    return handle;
  };
  const submit = async (customId: string, fields: Record<string, string>, user: UserFixture, memberPermissions: string, locale?: string) => {
    const handle = h.discord.modalSubmit(customId, fields, { user, memberPermissions, message: card, locale });
    await handle.waitFor(answered);
    return handle;
  };

  it('makes an emoji that fits Discord’s limits, named in a modal filled in from the prompt', async () => {
    const { member } = h.discord.fixtures;
    const opened = await click('em', member, CAN_CREATE);
    const modal = opened.acks[0]!;
    expect(modal.type).toBe(9);
    expect(JSON.stringify(modal.body?.data?.components)).toContain('"value":"a_lighthouse_at_dusk_oil"');
    const before = h.discord.guildEmojis(guildId()).length;
    const made = await submit(modal.body!.data!.custom_id!, { name: 'lighthouse' }, member, CAN_CREATE);
    const emojis = h.discord.guildEmojis(guildId());
    expect(emojis).toHaveLength(before + 1);
    const emoji = emojis.at(-1)!;
    expect(emoji).toMatchObject({ name: 'lighthouse', format: 'png', width: 128, height: 128 });
    expect(emoji.bytes.length).toBeLessThanOrEqual(256 * 1024);
    // Cropped from the result's centre, not a blank square: the image has more than one colour.
    const stats = await sharp(emoji.bytes).stats();
    expect(stats.channels.some((c) => c.max - c.min > 10)).toBe(true);
    expect(emoji.reason).toBe(`Made from an image by user ${member.id}`);
    expect(made.acks[0]?.flags ?? made.acks[0]?.body?.data?.flags).toBe(64);
    expect(answerOf(made)).toBe(`Added <:lighthouse:${emoji.id}> to the server as \`:lighthouse:\`.`);
    expect(h.discord.specViolations).toEqual([]);
  });

  it('makes a sticker: a 320x320 PNG of at most 512 KiB with its name, tags and description', async () => {
    const { member } = h.discord.fixtures;
    const opened = await click('st', member, CAN_CREATE);
    const made = await submit(opened.acks[0]!.body!.data!.custom_id!, { name: 'Lighthouse', tags: 'lighthouse', description: 'At dusk' }, member, CAN_CREATE);
    const sticker = h.discord.guildStickers(guildId()).at(-1)!;
    expect(sticker).toMatchObject({ name: 'Lighthouse', tags: 'lighthouse', description: 'At dusk', format: 'png', width: 320, height: 320 });
    expect(sticker.bytes.length).toBeLessThanOrEqual(512 * 1024);
    expect(answerOf(made)).toBe('Added the sticker **Lighthouse** to the server.');
  });

  it('refuses a member without Create Expressions, saying so, at the click and at the modal, and asks Discord nothing', async () => {
    const { member2 } = h.discord.fixtures.users;
    const posts = expressionPosts().length;
    const clicked = await click('em', member2, CANNOT_CREATE);
    expect(clicked.acks[0]?.type).toBe(4);
    expect(ephemeralError(clicked)).toContain('You need the **Create Expressions** permission in this server');
    // A modal opened while they had it, submitted once they no longer do.
    const opened = await click('em', member2, CAN_CREATE);
    const submitted = await submit(opened.acks[0]!.body!.data!.custom_id!, { name: 'not_mine' }, member2, CANNOT_CREATE);
    expect(answerOf(submitted)).toContain('You need the **Create Expressions** permission in this server');
    expect(expressionPosts()).toHaveLength(posts);
    expect(h.discord.guildEmojis(guildId()).some((e) => e.name === 'not_mine')).toBe(false);
  });

  it('refuses when the bot lacks Create Expressions, saying what to do, and asks Discord nothing', async () => {
    const { member } = h.discord.fixtures;
    const opened = await click('st', member, CAN_CREATE);
    h.discord.setBotPermissions(guildId(), Permissions.everyone | (1n << 30n));
    const posts = expressionPosts().length;
    const clicked = await click('em', member, CAN_CREATE);
    expect(ephemeralError(clicked)).toContain('I need the **Create Expressions** permission in this server');
    const submitted = await submit(opened.acks[0]!.body!.data!.custom_id!, { name: 'Nope', tags: 'nope', description: '' }, member, CAN_CREATE);
    expect(answerOf(submitted)).toContain('Ask an admin to give it to my role');
    expect(expressionPosts()).toHaveLength(posts);
  });

  it('refuses a name Discord would refuse, with the rule, in the member’s language', async () => {
    const { member } = h.discord.fixtures;
    const opened = await click('em', member, CAN_CREATE);
    const posts = expressionPosts().length;
    const english = await submit(opened.acks[0]!.body!.data!.custom_id!, { name: 'has space' }, member, CAN_CREATE);
    expect(answerOf(english)).toContain("I can't add that: an emoji's name is 2–32 letters, digits or underscores, with no spaces.");
    const german = await submit(opened.acks[0]!.body!.data!.custom_id!, { name: 'ö' }, member, CAN_CREATE, 'de');
    expect(answerOf(german)).toContain('Das kann ich nicht hinzufügen: der Name eines Emojis hat 2–32 Buchstaben');
    expect(expressionPosts()).toHaveLength(posts);
  });
});
