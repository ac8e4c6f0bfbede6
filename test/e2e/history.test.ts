/**
 * /history and /show end to end (issue 18): each member's history lists exactly their own delivered jobs (another
 * member and an admin see only theirs), pages with buttons that still work after a restart, /show posts a result
 * again with its buttons (but not one deleted since) and refuses anyone else's job, autocomplete offers only the
 * asker's jobs, and /history clear deletes the history from the store (read back from the store itself).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { EmulatedMessage, InteractionHandle, UserFixture } from '../emulators/discord/index.js';
import { openStorage } from '../../src/storage/open-storage.js';
import { startHarness, type Harness } from './harness.js';
import { customIds, ephemeralError, resultPost, lastText, settled, textOf } from './support.js';

/** A delivered job as the test knows it: its id (from its buttons) and its message. */
interface Delivered {
  jobId: string;
  message: EmulatedMessage;
}

describe('/history and /show, end to end', () => {
  let h: Harness;
  const delivered = new Map<string, Delivered>();
  beforeAll(async () => {
    h = await startHarness({ sqlite: true, env: { QUOTA_DEFAULT_LIMIT: '50' } });
    const { member, member2, admin } = h.discord.fixtures.users;
    // Six jobs of member's (one prompt full of markdown), one of member2's, one of the admin's.
    const jobs: [UserFixture, string][] = [
      ...Array.from({ length: 5 }, (_, i): [UserFixture, string] => [member, `member job ${i}`]),
      [member, '**bold** <@123> https://example.com ~~x~~'],
      [member2, 'member2 job'],
      [admin, 'admin job'],
    ];
    for (const [user, prompt] of jobs) delivered.set(prompt, await imagine(user, prompt));
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const imagine = async (user: UserFixture, prompt: string): Promise<Delivered> => {
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: prompt }], { user });
    await handle.waitFor((x) => resultPost(x) !== undefined);
    const message = handle.lastMessage()!;
    const jobId = customIds(message)[0]!.split(':')[1]!;
    // The history is written after the delivery edit, before the job is logged as delivered.
    await h.waitForLog((entry) => entry.msg === 'image job delivered' && entry['jobId'] === jobId);
    return { jobId, message };
  };
  const history = async (user: UserFixture, sub = 'list'): Promise<InteractionHandle> => {
    const handle = h.discord.slash('history', [{ name: sub, type: 1, options: [] }], { user });
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200) || x.acks.some((a) => a.type === 4));
    return handle;
  };
  const embedsOf = (handle: InteractionHandle) => handle.edits.filter((e) => e.status === 200).at(-1)?.payload?.embeds ?? [];
  const descriptions = (handle: InteractionHandle) => embedsOf(handle).map((e) => String((e as { description?: string }).description));

  it("lists exactly the member's own jobs, newest first, with thumbnail, escaped prompt, date and link, paged across a restart", async () => {
    const { member } = h.discord.fixtures.users;
    const first = await history(member);
    expect(lastText(first)).toBe('**Your recent images** · page 1 of 2 · 6 jobs');
    const page1 = descriptions(first);
    expect(page1).toHaveLength(5);
    const newest = delivered.get('**bold** <@123> https://example.com ~~x~~')!;
    // Markdown, a mention and a link shown as text, not formatted.
    expect(page1[0]).toContain('**\\*\\*bold\\*\\* \\<@123\\> https:/\u200b/example.com \\~\\~x\\~\\~**');
    expect(page1[0]).toMatch(/<t:\d+:f> · gpt-image-2 · auto · 1 image/);
    expect(page1[0]).toContain(`(https://discord.com/channels/${h.discord.fixtures.guild.id}/${newest.message.channel_id}/${newest.message.id})`);
    expect(page1[0]).toContain(`/show job:${newest.jobId}`);
    expect(embedsOf(first)[0]).toMatchObject({ thumbnail: { url: newest.message.attachments[0]!.url } });
    expect(page1.slice(1).map((d) => /member job \d/.exec(d)?.[0])).toEqual(['member job 4', 'member job 3', 'member job 2', 'member job 1']);

    // The paging buttons hold their own state: they work after a restart, and a job made meanwhile shifts nothing.
    await h.restart();
    await imagine(member, 'made after the first page');
    const page = first.lastMessage()!;
    const next = customIds(page).find((id) => id.startsWith('histpage:1:'))!;
    const clicked = h.discord.button(page, next, { user: member });
    await clicked.waitFor((x) => x.edits.some((e) => e.status === 200));
    expect(lastText(clicked)).toBe('**Your recent images** · page 2 of 2 · 6 jobs');
    expect(descriptions(clicked).map((d) => /member job \d/.exec(d)?.[0])).toEqual(['member job 0']);
    expect(customIds(clicked.lastMessage())).toEqual([expect.stringMatching(/^histpage:0:/), expect.stringMatching(/^histpage:2:/)]);
  });

  it('shows another member and an admin only their own history', async () => {
    const { member2, admin } = h.discord.fixtures.users;
    for (const [user, prompt] of [
      [member2, 'member2 job'],
      [admin, 'admin job'],
    ] as const) {
      const handle = await history(user);
      expect(lastText(handle)).toBe('**Your recent images** · page 1 of 1 · 1 job');
      expect(descriptions(handle)).toEqual([expect.stringContaining(`/show job:${delivered.get(prompt)!.jobId}`)]);
      expect(customIds(handle.lastMessage())).toEqual([]);
    }
  });

  it("offers only the asker's jobs in autocomplete, and /show posts one again with its buttons but nobody else's", async () => {
    const { member, member2, admin } = h.discord.fixtures.users;
    const choices = async (user: UserFixture, typed: string) => {
      const handle = h.discord.autocomplete('show', [{ name: 'job', type: 3, value: typed, focused: true }], { user });
      const ack = await handle.waitForAck();
      return (ack.body?.data as { choices: { name: string; value: string }[] }).choices;
    };
    const own = await choices(member2, '');
    expect(own.map((c) => c.value)).toEqual([delivered.get('member2 job')!.jobId]);
    expect(own[0]?.name).toMatch(/^member2 job · [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect((await choices(member, 'JOB 3')).map((c) => c.value)).toEqual([delivered.get('member job 3')!.jobId]);
    expect(await choices(admin, 'member')).toEqual([]);

    const original = delivered.get('member job 2')!;
    const shown = h.discord.slash('show', [{ name: 'job', type: 3, value: original.jobId }], { user: member });
    await shown.waitFor((x) => x.followUps.some((e) => e.status === 200 && e.files.length > 0));
    const repost = shown.lastMessage()!;
    // A new message under the reply (discord-api-docs#7529 refuses the edit), which points at it.
    expect(textOf(shown.originalMessage())).toBe('⬇️ Your images are just below.');
    // Public, a card like the original: its image, the prompt, the actions on it, Re-roll, Edit and Delete.
    expect(repost.flags).toBe(32768);
    expect(textOf(repost)).toContain('**member job 2**');
    expect(customIds(repost).slice(-3)).toEqual([`reroll:${original.jobId}`, `editres:${original.jobId}`, `delres:${original.jobId}`]);
    expect(customIds(repost)).toContain(`act:${original.jobId}:vs`);
    // Copies of the original's images, uploaded anew (the history's URLs expire).
    expect(repost.attachments.map((a) => a.filename)).toEqual(original.message.attachments.map((a) => a.filename));
    expect(repost.attachments[0]!.url).not.toBe(original.message.attachments[0]!.url);
    expect(shown.followUps.find((e) => e.files.length > 0)!.files[0]!.bytes.equals(await download(original.message.attachments[0]!.url))).toBe(true);

    // A result deleted since is not brought back.
    const deleted = delivered.get('member job 1')!;
    h.discord.messages.delete(deleted.message.id);
    const gone = h.discord.slash('show', [{ name: 'job', type: 3, value: deleted.jobId }], { user: member });
    await gone.waitFor(settled);
    expect(ephemeralError(gone)).toContain("That result's images are gone");

    for (const user of [member2, admin]) {
      const refused = h.discord.slash('show', [{ name: 'job', type: 3, value: original.jobId }], { user });
      await refused.waitFor(settled);
      expect(ephemeralError(refused)).toContain("That job isn't in your history here.");
    }
  });

  it("clears the member's history from the store, and only theirs", async () => {
    const { member, member2 } = h.discord.fixtures.users;
    const cleared = await history(member2, 'clear');
    expect(lastText(cleared)).toBe('Your history here is cleared. The images stay where they were posted.');
    const storage = await openStorage({
      url: h.config.STORAGE_URL,
      defaults: { limit: 1, period: 'day' },
      jobLeaseMs: 60_000,
      logger: pino({ level: 'silent' }),
    });
    try {
      const guildId = h.discord.fixtures.guild.id;
      expect(await storage.history.entries({ guildId, userId: member2.id })).toEqual([]);
      expect(await storage.history.entries({ guildId, userId: member.id })).toHaveLength(7);
    } finally {
      await storage.close();
    }
    expect(lastText(await history(member2))).toBe('You have no images in your history here yet.');
    expect(h.discord.specViolations).toEqual([]);
  });
});

async function download(url: string): Promise<Buffer> {
  return Buffer.from(await (await fetch(url)).arrayBuffer());
}
