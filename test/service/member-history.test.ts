/**
 * MemberHistory over a real store (memory://): delivered jobs land in their requester's history on their server,
 * pages count only what was delivered until the first page was shown, search and show reach only the asker's own
 * jobs, entries past HISTORY_DAYS are gone, and clearing empties the store.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { UserFacingError } from '../../src/errors.js';
import type { ImageJob } from '../../src/core/jobs.js';
import { MemberHistory } from '../../src/service/member-history.js';
import { type PostedImage } from '../../src/ports/posted-images.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { GUILD_ID, imagineJob, MEMBER_ID } from '../fakes/jobs.js';
import { ManualClock } from '../fakes/manual-clock.js';

const OTHER_ID = '200000000000000002';
/** An ordinary channel where the member may attach files. */
const HERE = { channelId: '300000000000000001', parentUnknown: false, ageRestricted: false, canAttachFiles: true };
const DAY_MS = 86_400_000;
const opened: Storage[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function setup() {
  const clock = new ManualClock('2026-03-01T12:00:00Z');
  const storage = await openStorage({ url: 'memory://', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 60_000, logger: pino({ level: 'silent' }), clock });
  opened.push(storage);
  /** Messages that still exist, by id, with their images. */
  const messages = new Map<string, PostedImage[]>();
  /** The messages whose images were downloaded, in order. */
  const fetches: string[] = [];
  const history = new MemberHistory({
    store: storage.history,
    images: {
      fetch: async ({ messageId }) => {
        fetches.push(messageId);
        const images = messages.get(messageId);
        return images && { images, release: () => undefined };
      },
    },
    clock,
    keepMs: 30 * DAY_MS,
  });
  let message = 0;
  /** Delivers `job` one minute after the last one, in message 5000…n. */
  const deliver = async (job: ImageJob) => {
    clock.advance(60_000);
    message += 1;
    const id = `5000000000000000${String(message).padStart(2, '0')}`;
    messages.set(id, [{ bytes: Buffer.from([message]), filename: `image-${message}.png` }]);
    await history.record(job, { model: 'gpt-image-2', images: 1, posted: { messageIds: [id], imageUrl: `https://cdn.example/${id}.png` } });
    return id;
  };
  return { clock, storage, history, messages, deliver, fetches };
}

const member = { guildId: GUILD_ID, userId: MEMBER_ID };
const other = { guildId: GUILD_ID, userId: OTHER_ID };

describe('MemberHistory', () => {
  it('records each delivered job for its requester on its server, where its first message is', async () => {
    const { history, deliver } = await setup();
    const job = imagineJob({ prompt: 'a red kite', size: { width: 1024, height: 1536 } });
    const messageId = await deliver(job);
    await deliver(imagineJob({ prompt: 'not mine' }, OTHER_ID));
    await deliver({
      ...imagineJob({ prompt: 'elsewhere' }),
      origin: { guildId: '300000000000000009', channelId: '400000000000000009', requesterId: MEMBER_ID },
    });

    const { entries, total } = await history.page(member, 0);
    expect(total).toBe(1);
    expect(entries[0]).toEqual({
      jobId: job.id,
      kind: 'imagine',
      prompt: 'a red kite',
      model: 'gpt-image-2',
      size: '1024x1536',
      images: 1,
      createdAt: Date.parse('2026-03-01T12:01:00Z'),
      guildId: GUILD_ID,
      channelId: '400000000000000001',
      messageId,
      imageUrl: `https://cdn.example/${messageId}.png`,
      moderation: 'auto',
      originChannelId: '400000000000000001',
    });
    expect((await history.page(other, 0)).entries.map((e) => e.prompt)).toEqual(['not mine']);
  });

  it("keeps a job's moderation level and origin channel, and shows a moderation:low one only where its rules allow, downloading nothing elsewhere", async () => {
    const { history, messages, deliver, fetches } = await setup();
    const job = imagineJob({ prompt: 'after dark', moderation: 'low' });
    const messageId = await deliver({ ...job, origin: { ...job.origin, channelId: '400000000000000002', parentChannelId: '400000000000000003' } });
    expect((await history.page(member, 0)).entries[0]).toMatchObject({ moderation: 'low', originChannelId: '400000000000000003' });

    await expect(history.show(member, job.id, HERE)).rejects.toEqual(new UserFacingError('show.ageRestrictedOnly'));
    expect(fetches).toEqual([]);
    const shown = await history.show(member, job.id, { ...HERE, ageRestricted: true });
    expect(shown.images).toEqual(messages.get(messageId));
    expect(fetches).toEqual([messageId]);
  });

  it('pages newest first, clamps the page, and keeps the pages still while new jobs arrive', async () => {
    const { clock, history, deliver } = await setup();
    for (let i = 0; i < 12; i += 1) await deliver(imagineJob({ prompt: `job ${i}` }));
    const first = await history.page(member, 0);
    expect({ pages: first.pages, total: first.total, prompts: first.entries.map((e) => e.prompt) }).toEqual({
      pages: 3,
      total: 12,
      prompts: ['job 11', 'job 10', 'job 9', 'job 8', 'job 7'],
    });
    await deliver(imagineJob({ prompt: 'newer' }));
    clock.advance(60_000);
    expect((await history.page(member, 1, first.asOf)).entries.map((e) => e.prompt)).toEqual(['job 6', 'job 5', 'job 4', 'job 3', 'job 2']);
    expect((await history.page(member, 9, first.asOf)).entries.map((e) => e.prompt)).toEqual(['job 1', 'job 0']);
    expect((await history.page(member, 0)).entries[0]?.prompt).toBe('newer');
  });

  it("searches and shows only the asker's own jobs", async () => {
    const { history, messages, deliver } = await setup();
    const mine = imagineJob({ prompt: 'A Blue Whale' });
    const theirs = imagineJob({ prompt: 'a blue bird' }, OTHER_ID);
    const messageId = await deliver(mine);
    await deliver(theirs);

    expect((await history.search(member, 'blue')).map((e) => e.jobId)).toEqual([mine.id]);
    expect((await history.search(member, mine.id.slice(0, 4))).map((e) => e.jobId)).toEqual([mine.id]);
    expect((await history.show(member, mine.id, HERE)).images).toEqual(messages.get(messageId));
    await expect(history.show(member, theirs.id, HERE)).rejects.toEqual(new UserFacingError('history.unknownJob'));
    messages.delete(messageId);
    await expect(history.show(member, mine.id, HERE)).rejects.toEqual(new UserFacingError('history.resultGone'));
  });

  it('forgets jobs older than its retention, and clears the store', async () => {
    const { clock, storage, history, deliver } = await setup();
    await deliver(imagineJob({ prompt: 'old' }));
    clock.advance(29 * DAY_MS);
    await deliver(imagineJob({ prompt: 'recent' }));
    await deliver(imagineJob({ prompt: 'theirs' }, OTHER_ID));
    clock.advance(2 * DAY_MS);
    expect((await history.page(member, 0)).entries.map((e) => e.prompt)).toEqual(['recent']);

    await history.clear(member);
    expect(await storage.history.entries(member)).toEqual([]);
    expect((await storage.history.entries(other)).map((e) => e.prompt)).toEqual(['theirs']);
  });
});
