/**
 * Moderation strikes end to end (issue 27), the real bot against the emulators on one adjustable clock: a member
 * whose requests the gateway's moderation refuses three times (moderation_blocked, content_policy_violation, sensitive
 * words) is warned, then paused and told until when; their next /imagine and a card action are refused in their
 * language without a gateway request or a charge, while another member generates; an admin sees the pause in /usage
 * and the audit channel and lifts it with /quota strikes-clear, after which the member generates again; and a pause
 * ends by itself once its time is over.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EmulatedMessage, InteractionHandle, SlashOption, UserFixture } from '../emulators/discord/index.js';
import type { ErrorPreset } from '../emulators/gateway/index.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { imagineOptions, startHarness, type Harness } from './harness.js';
import { customIds, ephemeralError, resultPost, lastText, quotaText, settled, textOf } from './support.js';

const START = Date.parse('2026-06-01T12:00:00Z');
const HOUR = 3_600_000;
const seconds = (ms: number): number => Math.ceil(ms / 1000);

describe('moderation strikes end to end', () => {
  const clock = new ManualClock(START);
  let h: Harness;
  let auditChannelId: string;
  /** The paused member's result card from before their pause. */
  let card: EmulatedMessage;
  beforeAll(async () => {
    h = await startHarness({
      clock,
      discord: { clock },
      env: { MODERATION_STRIKES: '3', MODERATION_STRIKE_WINDOW_HOURS: '24', MODERATION_PAUSE_HOURS: '24', LOG_LEVEL: 'debug' },
    });
    auditChannelId = h.discord.fixtures.guild.channels.nsfw.id;
    const audit = h.discord.slash('settings', [{ name: 'audit', type: 1, options: [{ name: 'channel', type: 7, value: auditChannelId }] }], {
      user: h.discord.fixtures.admin,
    });
    await audit.waitFor((x) => x.edits.some((e) => e.status === 200));
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  /** Runs an interaction to its end: answered, and the bot done with it (its job counted and audited). */
  const done = async (handle: InteractionHandle): Promise<InteractionHandle> => {
    await handle.waitFor(settled);
    await h.waitForLog((e) => e['interactionId'] === handle.id && (e.msg === 'interaction handled' || e.msg === 'user-facing error'));
    return handle;
  };
  const imagine = (user: UserFixture, prompt: string, locale?: string) => done(h.discord.slash('imagine', imagineOptions(prompt), { user, locale }));
  const refused = async (user: UserFixture, preset: ErrorPreset, prompt: string) => {
    h.gateway.enqueue({ type: 'error', preset });
    return ephemeralError(await imagine(user, prompt));
  };
  const admin = async (command: string, options: SlashOption[]) => {
    const handle = h.discord.slash(command, options, { user: h.discord.fixtures.admin });
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200));
    return lastText(handle);
  };
  const auditLines = () => [...h.discord.messages.values()].filter((m) => m.channel_id === auditChannelId).map((m) => m.content);

  it('warns a member at each refusal, pauses them at the third and tells them until when, and tells the audit channel', async () => {
    const { member } = h.discord.fixtures;
    card = (await imagine(member, 'a harbour at dawn')).lastMessage()!;
    const first = await refused(member, 'moderation', 'first');
    expect(first).toContain("The image service's safety system declined this request.");
    expect(first).toContain('Careful: 2 more declined requests within 24 hours will pause your image generation for 24 hours.');
    expect(await refused(member, 'content_policy', 'second')).toContain('Careful: one more declined request within 24 hours');
    const third = await refused(member, 'sensitive_words', 'third');
    expect(third).toContain("After 3 declined requests you're paused from generating images");
    expect(third).toContain(`You can generate again <t:${seconds(START + 24 * HOUR)}:R>.`);
    await vi.waitFor(() => expect(auditLines().some((line) => line.startsWith('⏸️'))).toBe(true));
    expect(auditLines().find((line) => line.startsWith('⏸️'))).toMatch(
      new RegExp(
        `^⏸️ <@${member.id}> is paused from generating until <t:${seconds(START + 24 * HOUR)}:f> \\(<t:${seconds(START + 24 * HOUR)}:R>\\): 3 requests declined by moderation within 24 hours\\n-# job \\S+$`,
      ),
    );
  });

  it('refuses the paused member’s /imagine (in their language) and a card action without a gateway request or a charge; another member generates', async () => {
    const { member, users } = h.discord.fixtures;
    const requests = h.gateway.imageRequests().length;
    const quota = await quotaText(h.discord, member);
    expect(quota).toContain('19 of 20 images left');
    expect(quota).toContain(`paused from generating images until <t:${seconds(START + 24 * HOUR)}:f>`);

    const japanese = ephemeralError(await imagine(member, 'still paused', 'ja'));
    expect(japanese).toContain('画像生成が一時停止されています');
    expect(japanese).toContain(`<t:${seconds(START + 24 * HOUR)}:R>に再び生成できます`);
    const vary = customIds(card).find((id) => id.endsWith(':vs'));
    const reroll = customIds(card).find((id) => id.startsWith('reroll:'));
    for (const id of [vary, reroll]) {
      expect(id).toBeDefined();
      const click = await done(h.discord.button(card, id!, { user: member }));
      expect(ephemeralError(click)).toContain("You're paused from generating images");
      expect(resultPost(click)).toBeUndefined();
    }
    expect(h.gateway.imageRequests()).toHaveLength(requests);
    expect(await quotaText(h.discord, member)).toContain('19 of 20 images left');

    const other = await imagine(users.member2, 'a lighthouse');
    expect(resultPost(other)).toBeDefined();
    expect(h.gateway.imageRequests()).toHaveLength(requests + 1);
  });

  it('shows an admin the strikes and who is paused in /usage, and lifts the pause with /quota strikes-clear', async () => {
    const { member, admin: adminUser } = h.discord.fixtures;
    const until = `<t:${seconds(START + 24 * HOUR)}:f>`;
    const report = await admin('usage', [{ name: 'period', type: 3, value: 'day' }]);
    expect(report).toContain('Moderation: 3 requests declined (strikes) · 1 pause');
    expect(report).toContain(`Paused now: 1 — <@${member.id}> until ${until}`);
    expect(report).toContain('`moderation.paused` 3');
    const own = await admin('usage', [{ name: 'user', type: 6, value: member.id }]);
    expect(own).toContain('Moderation: 3 requests declined (strikes) · 1 pause');
    expect(own).toContain(`Paused now: 1 — <@${member.id}> until ${until}`);

    const lifted = await admin('quota', [{ name: 'strikes-clear', type: 1, options: [{ name: 'user', type: 6, value: member.id }] }]);
    expect(lifted).toBe(`✅ Lifted <@${member.id}>'s pause (it ran until ${until}) and cleared their moderation strikes.`);
    await vi.waitFor(() => expect(auditLines().at(-1)).toContain(`<@${adminUser.id}> changed \`/quota strikes-clear\` for <@${member.id}>`));
    expect(auditLines().at(-1)).toContain('pausedUntil: `"2026-06-02T12:00:00.000Z"` → `unset`');
    expect(await admin('usage', [])).toContain('Paused now: nobody');

    const again = await imagine(member, 'a harbour at noon');
    expect(resultPost(again)).toBeDefined();
    expect(textOf(resultPost(again)?.payload)).toContain('a harbour at noon');
  });

  it('ends a pause by itself once its time is over', async () => {
    const { vip } = h.discord.fixtures.users;
    for (const preset of ['moderation', 'content_policy', 'moderation'] as const) await refused(vip, preset, 'too much');
    expect(ephemeralError(await imagine(vip, 'paused'))).toContain("You're paused from generating images");
    clock.advance(24 * HOUR - 1_000);
    expect(ephemeralError(await imagine(vip, 'still paused'))).toContain("You're paused from generating images");
    clock.advance(1_000);
    expect(resultPost(await imagine(vip, 'back again'))).toBeDefined();
    expect(await admin('usage', [{ name: 'period', type: 3, value: 'day' }])).toContain('Paused now: nobody');
  });

  it('sent nothing the platforms would reject', () => {
    expect(h.discord.specViolations).toEqual([]);
    expect(h.gateway.specViolations).toEqual([]);
  });
});
