/**
 * The notice of a cancelled job, against the Discord emulator: where it goes when the reply's token is gone, the
 * channel refuses the bot, or there is no server; what it says; and that a token never reaches the log. (The edit of
 * the original reply with a live token is covered end to end in test/e2e/crash-recovery.test.ts.)
 */
import { REST } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscordAbandonedNotifier } from '../../src/discord/abandoned-notice.js';
import { createInteractionWebhookRest } from '../../src/discord/original-reply.js';
import { createDiscordRestAgent } from '../../src/discord/rest-agent.js';
import type { AbandonedJobNotice } from '../../src/ports/abandoned-job-notifier.js';
import { startDiscordEmulator, type DiscordEmulator } from '../emulators/discord/index.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { createLogger } from '../../src/logger.js';
import { textOf } from '../e2e/support.js';

let discord: DiscordEmulator;
const agent = createDiscordRestAgent();
const rests: REST[] = [];

beforeAll(async () => {
  discord = await startDiscordEmulator({ log: false });
});
afterAll(async () => {
  for (const rest of rests) {
    rest.clearHashSweeper();
    rest.clearHandlerSweeper();
  }
  await (discord as DiscordEmulator | undefined)?.close();
  await agent.close();
});

function notifier(clock = new ManualClock(Date.now())) {
  const rest = new REST({ api: discord.apiUrl, agent }).setToken(discord.token);
  const webhookRest = createInteractionWebhookRest({ api: discord.apiUrl, agent });
  rests.push(rest, webhookRest);
  const log = productionLogger();
  return { log, notifier: new DiscordAbandonedNotifier({ rest, webhookRest, clock, logger: log.logger }) };
}

/** The bot's own logger (its error serializer included), writing into memory. */
function productionLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level: 'debug', destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
  return { logger, lines, find: (msg: string) => lines.filter((line) => line['msg'] === msg) };
}

function notice(extra: Partial<AbandonedJobNotice> = {}): AbandonedJobNotice {
  const { guild, users } = discord.fixtures;
  return { jobId: 'AbCdEfGhIjKl', prompt: 'a **bold** fox', requesterId: users.member.id, guildId: guild.id, channelId: guild.channels.general.id, ...extra };
}

describe('DiscordAbandonedNotifier', () => {
  it('posts in the channel, mentioning only the member, when the reply token no longer works; the token is not logged', async () => {
    const { notifier: tell, log } = notifier();
    const before = discord.channelPosts.length;
    const reply = { applicationId: discord.applicationId, interactionToken: 'a-token-discord-forgot', tokenExpiresAt: Date.now() + 600_000 };
    await tell.tell(notice({ reply }));

    const post = discord.channelPosts.slice(before).at(-1);
    expect(post?.status).toBe(200);
    expect(textOf(post?.payload)).toBe(
      `<@${discord.fixtures.users.member.id}> ⚠️ The bot stopped before your images for **a \\*\\*bold\\*\\* fox** were ready, so the request was cancelled. You were not charged.`,
    );
    expect(post?.payload?.allowed_mentions).toEqual({ users: [discord.fixtures.users.member.id] });
    expect(post?.payload?.flags).toBe(32768);
    expect(post?.payload?.components?.slice(1)).toEqual([
      { type: 1, components: [{ type: 2, style: 2, custom_id: 'reroll:AbCdEfGhIjKl', label: 'Re-roll', emoji: { name: '🔁' } }] },
    ]);
    expect(log.find('could not edit the original reply; posting in the channel instead')).toHaveLength(1);
    expect(JSON.stringify(log.lines)).not.toContain('a-token-discord-forgot');
  });

  it('does not try a token that is about to expire', async () => {
    const clock = new ManualClock(Date.now());
    const { notifier: tell, log } = notifier(clock);
    const before = discord.channelPosts.length;
    await tell.tell(notice({ reply: { applicationId: discord.applicationId, interactionToken: 'nearly-gone', tokenExpiresAt: clock.now() + 30_000 } }));
    expect(discord.channelPosts.length).toBe(before + 1);
    expect(log.lines).toEqual([]);
  });

  it('sends a direct message when the bot cannot post in the channel, or the job was outside a server', async () => {
    const { notifier: tell } = notifier();
    const { guild, users } = discord.fixtures;
    const dmsBefore = discord.dmPosts.length;
    discord.denyChannelPosts(guild.channels.nsfw.id);
    await tell.tell(notice({ channelId: guild.channels.nsfw.id }));
    await tell.tell(notice({ guildId: null, channelId: null, prompt: 'a quiet DM' }));

    const dms = discord.dmPosts.slice(dmsBefore);
    expect(dms.map((dm) => dm.status)).toEqual([200, 200]);
    expect(textOf(dms[1]?.payload)).toContain(`<@${users.member.id}>`);
    expect(textOf(dms[1]?.payload)).toContain('a quiet DM');
  });

  it('tells the member in their own language, the one their job was journalled with', async () => {
    const { notifier: tell } = notifier();
    const before = discord.channelPosts.length;
    await tell.tell(notice({ locale: 'ja', prompt: '霧の森の狐' }));
    const post = discord.channelPosts.slice(before).at(-1);
    expect(post?.status).toBe(200);
    expect(textOf(post?.payload)).toContain('**霧の森の狐** の画像ができる前にボットが停止したため、リクエストはキャンセルされました。');
    expect(JSON.stringify(post?.payload?.components)).toContain('"label":"再生成"');
  });
});
