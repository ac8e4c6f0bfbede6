import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionHandle, UserFixture } from '../emulators/discord/index.js';
import { imagineOptions, startHarness, type Harness } from './harness.js';
import { textOf } from './support.js';

/** The text the member finally sees: the last edit or follow-up with content. */
function lastText(handle: InteractionHandle): string {
  const texts = [
    ...handle.acks.map((a) => textOf(a.body?.data)),
    ...handle.edits.map((e) => textOf(e.payload)),
    ...handle.followUps.map((f) => textOf(f.payload)),
  ];
  return texts.filter((t) => t !== '').at(-1) ?? '';
}

function delivered(handle: InteractionHandle): boolean {
  return handle.followUps.some((e) => e.status === 200 && e.files.length > 0);
}

function settled(handle: InteractionHandle): boolean {
  return delivered(handle) || handle.followUps.some((f) => f.status === 200 && ((f.payload?.flags ?? 0) & 64) !== 0) || handle.acks.some((a) => a.type === 4);
}

async function quota(h: Harness, user: UserFixture, sub: string, options: { name: string; type: number; value: string | number }[] = []) {
  const handle = h.discord.slash('quota', [{ name: sub, type: 1, options }], { user });
  await handle.waitFor((x) => x.edits.some((e) => e.status === 200) || x.acks.some((a) => a.type === 4));
  return { handle, text: lastText(handle) };
}

describe('quotas end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sqlite: true, env: { QUOTA_DEFAULT_LIMIT: '20' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it('lets an admin set a limit of 3 that exactly 3 of 12 simultaneous requests get', async () => {
    const { admin, member } = h.discord.fixtures;
    const set = await quota(h, admin, 'set', [
      { name: 'limit', type: 4, value: 3 },
      { name: 'user', type: 6, value: member.id },
    ]);
    expect(set.text).toContain('3 images per day');
    expect(set.handle.acks[0]?.body?.data?.flags).toBe(64);

    const before = h.gateway.imageRequests().length;
    const handles = Array.from({ length: 12 }, (_, i) =>
      h.discord.slash('imagine', imagineOptions(`burst ${i}`, [{ name: 'count', type: 4, value: 1 }]), { user: member }),
    );
    await Promise.all(handles.map((x) => x.waitFor(settled)));
    const ok = handles.filter(delivered);
    expect(ok).toHaveLength(3);
    expect(h.gateway.imageRequests().length - before).toBe(3);
    const refused = handles.filter((x) => !delivered(x));
    for (const x of refused) {
      expect(lastText(x)).toContain("You've used your images");
      expect(x.followUps.at(-1)?.payload?.flags).toBe(64 | 32768);
    }
    for (const x of handles) expect(x.acks.filter((a) => a.status < 300)).toHaveLength(1);

    const show = await quota(h, member, 'show');
    expect(show.text).toContain('0 of 3 images left');
  });

  it('counts a server that installed only the commands (no bot user there) as that server: its limit of 0 blocks its members', async () => {
    const { admin, member, thirdGuild } = h.discord.fixtures;
    // Without the thirdGuild option the bot is not in thirdGuild: interactions come from a commands-only install.
    expect(h.bot.client.guilds.cache.has(thirdGuild.id)).toBe(false);
    const set = h.discord.slash('quota', [{ name: 'set', type: 1, options: [{ name: 'limit', type: 4, value: 0 }] }], { user: admin, guild: thirdGuild });
    await set.waitFor((x) => x.edits.some((e) => e.status === 200) || x.acks.some((a) => a.type === 4));
    expect(lastText(set)).toContain('Everyone on this server (default): blocked (limit 0)');

    const before = h.gateway.imageRequests().length;
    const blocked = h.discord.slash('imagine', imagineOptions('in a commands-only server'), { user: member, guild: thirdGuild });
    await blocked.waitFor(settled);
    expect(delivered(blocked)).toBe(false);
    expect(lastText(blocked)).toContain("isn't enabled for you on this server");
    expect(h.gateway.imageRequests().length).toBe(before);
  });

  it('leaves the remaining count unchanged when the gateway call fails', async () => {
    const user = h.discord.fixtures.users.member2;
    const before = (await quota(h, user, 'show')).text;
    expect(before).toContain('20 of 20 images left');
    h.gateway.enqueue({ type: 'error', preset: 'server_error' });
    const handle = h.discord.slash('imagine', imagineOptions('this one fails'), { user });
    await handle.waitFor(settled);
    expect(delivered(handle)).toBe(false);
    expect(lastText(handle)).toContain('You were not charged');
    expect((await quota(h, user, 'show')).text).toContain('20 of 20 images left');
  });

  it('refuses limit changes from a member without Manage Server, even when the command reaches the bot', async () => {
    const { member, users } = h.discord.fixtures;
    const attempt = await quota(h, member, 'set', [
      { name: 'limit', type: 4, value: 99 },
      { name: 'user', type: 6, value: member.id },
    ]);
    expect(attempt.text).toContain('Manage Server');
    const peek = await quota(h, member, 'show', [{ name: 'user', type: 6, value: users.member2.id }]);
    expect(peek.text).toContain('Manage Server');
    expect((await quota(h, member, 'show')).text).toContain('0 of 3 images left');
  });

  it('keeps usage across a restart on the same SQLite file', async () => {
    await h.restart();
    expect((await quota(h, h.discord.fixtures.member, 'show')).text).toContain('0 of 3 images left');
  });

  it('lets an admin reset a member and gives role limits to their holders', async () => {
    const { admin, member, users, guild } = h.discord.fixtures;
    const reset = await quota(h, admin, 'reset', [{ name: 'user', type: 6, value: member.id }]);
    expect(reset.text).toContain('was 3');
    expect((await quota(h, member, 'show')).text).toContain('3 of 3 images left');
    await quota(h, admin, 'set', [
      { name: 'limit', type: 4, value: 7 },
      { name: 'role', type: 8, value: guild.roles.vip.id },
      { name: 'period', type: 3, value: 'week' },
    ]);
    const vip = await quota(h, users.vip, 'show');
    expect(vip.text).toContain('7 of 7 images left');
    expect(vip.text).toContain('this week');
    const both = await quota(h, admin, 'set', [
      { name: 'limit', type: 4, value: 1 },
      { name: 'user', type: 6, value: member.id },
      { name: 'role', type: 8, value: guild.roles.vip.id },
    ]);
    expect(both.text).toContain('not both');
  });

  it('sent nothing the platforms would reject', () => {
    expect(h.discord.specViolations).toEqual([]);
    expect(h.gateway.specViolations).toEqual([]);
  });
});
