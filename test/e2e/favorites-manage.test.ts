/**
 * Managing favorites end to end (issue 32), the real bot against the emulators on one adjustable clock: a member who
 * starred 12 results pages through them with /history favorites (the newest 10, then Next shows the other 2); another
 * member can neither page nor remove from that list; Remove takes one favorite out of the list and the count (a new
 * /history favorites agrees) and leaves its showcase post where it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatedMessage, InteractionHandle, UserFixture } from '../emulators/discord/index.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { startHarness, type Harness } from './harness.js';
import { customIds, ephemeralError, resultPost, settled, textOf } from './support.js';

const START = Date.parse('2026-06-01T12:00:00Z');

describe('managing favorites end to end', () => {
  const clock = new ManualClock(START);
  let h: Harness;
  let showcaseId: string;
  beforeAll(async () => {
    h = await startHarness({ clock, discord: { clock }, env: { QUOTA_DEFAULT_LIMIT: '50', LOG_LEVEL: 'debug' } });
    const { guild, admin, member } = h.discord.fixtures;
    showcaseId = guild.channels.nsfw.id;
    const set = h.discord.slash('settings', [{ name: 'showcase', type: 1, options: [{ name: 'channel', type: 7, value: showcaseId }] }], { user: admin });
    await set.waitFor(answered);
    for (let i = 0; i < 12; i++) {
      // Ten stars a minute at most: the last two a minute later.
      if (i === 10) clock.advance(61_000);
      const prompt = `favorite number ${i}`;
      const answer = await starred(await card(prompt, member), member);
      expect(answer).toContain('Posted to the showcase');
      clock.advance(1_000);
    }
  }, 120_000);
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const answered = (x: InteractionHandle) => x.edits.some((e) => e.status === 200);
  const card = async (prompt: string, user: UserFixture): Promise<EmulatedMessage> => {
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: prompt }], { user });
    await handle.waitFor((x) => resultPost(x) !== undefined);
    await h.waitForLog((e) => e['interactionId'] === handle.id && e.msg === 'interaction handled');
    return handle.lastMessage()!;
  };
  const starred = async (message: EmulatedMessage, user: UserFixture): Promise<string> => {
    const handle = h.discord.button(
      message,
      customIds(message).find((c) => c.endsWith(':fv'))!,
      { user },
    );
    await handle.waitFor(answered);
    return textOf(handle.edits.filter((e) => e.status === 200).at(-1)?.payload);
  };
  /** The showcase's posts of `prompt` (the messages there now). */
  const showcased = (prompt: string) => [...h.discord.messages.values()].filter((m) => m.channel_id === showcaseId && textOf(m).includes(`**${prompt}**`));
  const favorites = async (user: UserFixture): Promise<InteractionHandle> => {
    const handle = h.discord.slash('history', [{ name: 'favorites', type: 1 }], { user });
    await handle.waitFor(answered);
    return handle;
  };
  const shown = (handle: InteractionHandle) => handle.edits.filter((e) => e.status === 200).at(-1)!.payload!;
  const prompts = (handle: InteractionHandle) => (shown(handle).embeds ?? []).map((e) => /favorite number \d+/.exec(String(e.description))?.[0]);
  const click = async (message: EmulatedMessage, id: string, user: UserFixture): Promise<InteractionHandle> => {
    const handle = h.discord.button(message, id, { user });
    await handle.waitFor((x) => answered(x) || settled(x));
    await h.waitForLog((e) => e['interactionId'] === handle.id && (e.msg === 'interaction handled' || e.msg === 'user-facing error'));
    return handle;
  };
  const numbers = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => `favorite number ${from - i}`);

  it('pages through all 12 favorites: the newest 10 first, then Next shows the other 2', async () => {
    const { member } = h.discord.fixtures;
    const first = await favorites(member);
    expect(shown(first).content).toBe('**Your favorites here** · page 1 of 2 · 12 of at most 100 (a new one pushes out the oldest)');
    expect(prompts(first)).toEqual(numbers(11, 2));
    const ids = customIds(first.lastMessage());
    expect(ids.filter((id) => id.startsWith('favpage:'))).toEqual([
      expect.stringMatching(new RegExp(`^favpage:${member.id}:-1:\\d+$`)),
      expect.stringMatching(new RegExp(`^favpage:${member.id}:1:\\d+$`)),
    ]);
    expect(ids.filter((id) => id.startsWith('favrm:'))).toHaveLength(10);
    const next = await click(
      first.lastMessage()!,
      ids.find((id) => id.startsWith(`favpage:${member.id}:1:`))!,
      member,
    );
    expect(shown(next).content).toBe('**Your favorites here** · page 2 of 2 · 12 of at most 100 (a new one pushes out the oldest)');
    expect(prompts(next)).toEqual(numbers(1, 0));
    expect(String(shown(next).embeds?.[0]?.description)).toMatch(/^`11` /);
    expect(customIds(next.lastMessage()).filter((id) => id.startsWith('favrm:'))).toHaveLength(2);
  });

  it('refuses another member the list’s buttons: they neither page it nor remove from it', async () => {
    const { member, users } = h.discord.fixtures;
    const list = await favorites(member);
    const ids = customIds(list.lastMessage());
    for (const id of [ids.find((i) => i.startsWith('favpage:') && i.includes(':1:'))!, ids.find((i) => i.startsWith('favrm:'))!]) {
      const refused = await click(list.lastMessage()!, id, users.member2);
      expect(ephemeralError(refused)).toContain('These buttons are for the member who opened that list. See yours with `/history favorites`.');
      expect(refused.edits.filter((e) => e.status === 200)).toEqual([]);
    }
    expect(shown(await favorites(member)).content).toContain('12 of at most 100');
  });

  it('removes a favorite from the list and the count, and leaves its showcase post', async () => {
    const { member } = h.discord.fixtures;
    expect(showcased('favorite number 10')).toHaveLength(1);
    const list = await favorites(member);
    const remove = customIds(list.lastMessage()).filter((id) => id.startsWith('favrm:'))[1]!;
    const removed = await click(list.lastMessage()!, remove, member);
    expect(shown(removed).content).toBe(
      [
        'Removed “favorite number 10” from your favorites here. A showcase post of it stays.',
        '**Your favorites here** · page 1 of 2 · 11 of at most 100 (a new one pushes out the oldest)',
      ].join('\n'),
    );
    expect(prompts(removed)).toEqual([...numbers(11, 11), ...numbers(9, 1)]);
    const again = await favorites(member);
    expect(shown(again).content).toContain('11 of at most 100');
    expect(prompts(again)).not.toContain('favorite number 10');
    // Clicking it again (a stale page) removes nothing more.
    const twice = await click(list.lastMessage()!, remove, member);
    expect(shown(twice).content).toContain('That one is no longer in your favorites here.');
    expect(shown(twice).content).toContain('11 of at most 100');
    // The showcase post stays.
    expect(showcased('favorite number 10')).toHaveLength(1);
    expect(h.discord.specViolations).toEqual([]);
  });
});
