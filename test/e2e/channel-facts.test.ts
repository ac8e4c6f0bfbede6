/**
 * Channel facts from the interaction (issue 29), end to end: the channel rules, spoilers and the NSFW policy read the
 * interaction's own `channel` object, so they hold in threads and in a server that installed only the commands (no bot
 * user, nothing cached): a thread of an excluded channel is refused, a thread of a spoiler channel gets spoilers, and an
 * age-restricted channel allows `moderation:low` there too. A thread's parent whose age restriction cannot be known
 * reads as not age-restricted (refused, never let through).
 */
import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuildFixture, SlashOption, UserFixture } from '../emulators/discord/index.js';
import { imagineOptions, startHarness, type Harness } from './harness.js';
import { ephemeralError, lastText, resultPost, settled, spoilerUploads } from './support.js';

describe('channel facts from the interaction', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '50' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const settings = async (guild: GuildFixture, sub: string, options: SlashOption[] = []) => {
    const handle = h.discord.slash('settings', [{ name: sub, type: 1, options }], { user: h.discord.fixtures.admin, guild });
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200) || x.acks.some((a) => a.type === 4));
    return lastText(handle);
  };
  const imagine = async (guild: GuildFixture, channelId: string, extra: SlashOption[] = [], user: UserFixture = h.discord.fixtures.member) => {
    const handle = h.discord.slash('imagine', imagineOptions('a lighthouse at dusk', extra as never), { user, guild, channelId });
    await handle.waitFor(settled);
    return handle;
  };

  it('refuses a thread of an excluded channel in a commands-only install, and in a private thread the bot is not in', async () => {
    const { thirdGuild, guild } = h.discord.fixtures;
    expect(h.bot.client.guilds.cache.has(thirdGuild.id)).toBe(false);
    for (const g of [thirdGuild, guild]) {
      await settings(g, 'channels', [
        { name: 'mode', type: 3, value: 'except' },
        { name: 'channel1', type: 7, value: g.channels.general.id },
      ]);
    }
    const before = h.gateway.imageRequests().length;
    const inThread = await imagine(thirdGuild, thirdGuild.threads.general.id);
    expect(ephemeralError(inThread)).toContain(`You can use it anywhere except <#${thirdGuild.channels.general.id}>.`);
    const inPrivate = await imagine(guild, guild.threads.private.id);
    expect(ephemeralError(inPrivate)).toContain(`You can use it anywhere except <#${guild.channels.general.id}>.`);
    expect(h.gateway.imageRequests().length).toBe(before);
    // A thread of another channel is fine.
    expect(resultPost(await imagine(thirdGuild, thirdGuild.threads.nsfw.id))).toBeDefined();
    for (const g of [thirdGuild, guild]) await settings(g, 'channels', [{ name: 'mode', type: 3, value: 'everywhere' }]);
  });

  it('posts spoilers in a thread of a spoiler channel, in a commands-only install too', async () => {
    const { thirdGuild } = h.discord.fixtures;
    await settings(thirdGuild, 'spoilers', [{ name: 'channel1', type: 7, value: thirdGuild.channels.general.id }]);
    const handle = await imagine(thirdGuild, thirdGuild.threads.general.id);
    expect(spoilerUploads(resultPost(handle))).toEqual([true]);
    await settings(thirdGuild, 'spoilers');
  });

  it("allows moderation:low in an age-restricted channel the bot has never seen, and reads an unseen thread's parent as not age-restricted", async () => {
    const { thirdGuild, guild } = h.discord.fixtures;
    const low = { name: 'moderation', type: 3, value: 'low' };
    expect(resultPost(await imagine(thirdGuild, thirdGuild.channels.nsfw.id, [low]))).toBeDefined();
    expect(h.gateway.imageRequests().at(-1)?.json).toMatchObject({ moderation: 'low' });
    // The bot has this thread's parent (it is in the server): age-restricted, allowed.
    expect(resultPost(await imagine(guild, guild.threads.nsfw.id, [low]))).toBeDefined();
    // Commands only: the thread's object does not say, and nothing is cached: refused.
    const unseen = await imagine(thirdGuild, thirdGuild.threads.nsfw.id, [low]);
    expect(ephemeralError(unseen)).toContain('`moderation:low` is only available in age-restricted channels');
    // An ordinary channel stays ordinary.
    expect(ephemeralError(await imagine(thirdGuild, thirdGuild.channels.general.id, [low]))).toContain('only available in age-restricted channels');
  });

  describe('/show obeys the server where it is asked', () => {
    const show = async (jobId: string, channelId: string, extra: { memberPermissions?: string } = {}) => {
      const handle = h.discord.slash('show', [{ name: 'job', type: 3, value: jobId }], { user: h.discord.fixtures.member, channelId, ...extra });
      await handle.waitFor((x) => settled(x) || x.followUps.some((e) => e.status === 200 && e.files.length > 0));
      return handle;
    };
    const made = async (channelId: string, extra: SlashOption[] = []) => {
      const handle = h.discord.slash('imagine', imagineOptions('a lantern festival', extra as never), { user: h.discord.fixtures.member, channelId });
      const accepted = await h.waitForLog((e) => e.msg === 'image job accepted' && e['interactionId'] === handle.id);
      await handle.waitFor(settled);
      expect(resultPost(handle)).toBeDefined();
      return String(accepted['jobId']);
    };
    const shownFiles = (handle: Awaited<ReturnType<typeof show>>) =>
      handle.followUps.find((e) => e.status === 200 && e.files.length > 0)?.files.map((f) => f.filename);

    it('shows a moderation:low result from an age-restricted channel only in one, while an ordinary result is shown anywhere', async () => {
      const { guild } = h.discord.fixtures;
      const low = await made(guild.channels.nsfw.id, [{ name: 'moderation', type: 3, value: 'low' }]);
      const ordinary = await made(guild.channels.nsfw.id);

      const refused = await show(low, guild.channels.general.id);
      expect(ephemeralError(refused)).toContain('I can only show it again in an age-restricted channel');
      expect(shownFiles(refused)).toBeUndefined();
      expect(shownFiles(await show(low, guild.channels.nsfw.id))).toEqual(['a-lantern-festival-1.png']);
      expect(shownFiles(await show(ordinary, guild.channels.general.id))).toEqual(['a-lantern-festival-1.png']);
    });

    it("runs the target channel's rules and spoilers, and the member's Attach Files permission there", async () => {
      const { guild } = h.discord.fixtures;
      const jobId = await made(guild.channels.general.id);
      await settings(guild, 'spoilers', [{ name: 'channel1', type: 7, value: guild.channels.nsfw.id }]);
      const shown = await show(jobId, guild.channels.nsfw.id);
      expect(shownFiles(shown)).toEqual(['a-lantern-festival-1.png']);
      expect(spoilerUploads(shown.followUps.find((e) => e.status === 200 && e.files.length > 0))).toEqual([true]);
      await settings(guild, 'spoilers');

      await settings(guild, 'channels', [
        { name: 'mode', type: 3, value: 'except' },
        { name: 'channel1', type: 7, value: guild.channels.nsfw.id },
      ]);
      expect(ephemeralError(await show(jobId, guild.channels.nsfw.id))).toContain(`You can use it anywhere except <#${guild.channels.nsfw.id}>.`);
      // A thread of the excluded channel, too.
      expect(ephemeralError(await show(jobId, guild.threads.nsfw.id))).toContain(`You can use it anywhere except <#${guild.channels.nsfw.id}>.`);
      await settings(guild, 'channels', [{ name: 'mode', type: 3, value: 'everywhere' }]);

      // Send Messages and Use Application Commands, but not Attach Files.
      const noFiles = String(PermissionFlagsBits.SendMessages | PermissionFlagsBits.UseApplicationCommands | PermissionFlagsBits.ViewChannel);
      const withoutFiles = await show(jobId, guild.channels.general.id, { memberPermissions: noFiles });
      expect(ephemeralError(withoutFiles)).toContain("You can't attach files in this channel");
      expect(shownFiles(withoutFiles)).toBeUndefined();
    });
  });
});
