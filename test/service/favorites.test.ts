/**
 * ⭐ in the service (issue 32): the member's rate limit; the favorite saved wherever they star; the showcase's gates
 * checked again for its own channel (channel rules, a `moderation:low` result only in an age-restricted channel, the
 * bot's permissions, a channel that is gone), none of which downloads anything; the post claimed once; its image's
 * room given back; a failed post's claim given back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { UserFacingError } from '../../src/errors.js';
import { DEFAULT_SETTINGS, type ServerSettings } from '../../src/core/server-settings.js';
import { ShowcasePostError } from '../../src/core/favorites.js';
import type { ShowcaseChannel, ShowcasePost, ShowcasePoster } from '../../src/ports/showcase-poster.js';
import { FairQueue } from '../../src/service/fair-queue.js';
import { Favorites, type StarOrder } from '../../src/service/favorites.js';
import { resolveJobDeps } from '../../src/service/image-job/deps.js';
import { MemoryBudget } from '../../src/service/memory-budget.js';
import { openStorage, type Storage } from '../../src/storage/open-storage.js';
import { FakeGateway } from '../fakes/fake-gateway.js';
import { flatPng } from '../fakes/images.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { silentLogger } from '../fakes/memory-logger.js';

const GUILD = '100000000000000001';
const SHOWCASE = '100000000000000050';
const opened: Storage[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((storage) => storage.close()));
});

class FakePoster implements ShowcasePoster {
  place: ShowcaseChannel | undefined = { nsfw: false, botCanPost: true };
  readonly posts: ShowcasePost[] = [];
  failure: Error | undefined;
  channel() {
    return Promise.resolve(this.place);
  }
  post(post: ShowcasePost) {
    if (this.failure) return Promise.reject(this.failure);
    this.posts.push(post);
    return Promise.resolve({ messageId: String(300000000000000000 + this.posts.length) });
  }
}

async function setup(settings: Partial<ServerSettings> = { showcaseChannelId: SHOWCASE }) {
  const storage = await openStorage({ url: 'memory://', defaults: { limit: 5, period: 'day' }, jobLeaseMs: 60_000, logger: silentLogger });
  opened.push(storage);
  const png = (await flatPng(64, 64)).bytes;
  const downloads: string[] = [];
  const memory = new MemoryBudget();
  const clock = new ManualClock(1_000_000);
  const { produce } = resolveJobDeps(
    { gateway: new FakeGateway(), logger: silentLogger },
    {
      rules: {},
      holds: { quotas: storage.quotas },
      produce: {
        queue: new FairQueue(),
        memory,
        download: (ref) => {
          downloads.push(ref.filename);
          return Promise.resolve(png);
        },
      },
    },
  );
  const favorites = new Favorites({
    store: storage.favorites,
    settings: { get: () => Promise.resolve({ ...DEFAULT_SETTINGS, ...settings }) },
    produce,
    clock,
    logger: silentLogger,
  });
  return { favorites, downloads, memory, clock, poster: new FakePoster(), storage };
}

const order = (overrides: Partial<StarOrder> = {}): StarOrder => ({
  owner: { guildId: GUILD, userId: '200000000000000002' },
  jobId: 'job-1',
  prompt: 'a lighthouse\nat dusk',
  authorId: '200000000000000001',
  lowModeration: false,
  card: { channelId: '100000000000000002', messageId: '500000000000000001' },
  image: { url: 'https://cdn.discordapp.com/a.png', filename: 'a.png', size: 2_000 },
  ...overrides,
});

describe('⭐ in the service', () => {
  it('saves the favorite and posts the result once, crediting its author, with its image’s room given back', async () => {
    const { favorites, poster, memory, downloads } = await setup();
    const first = await favorites.star(order(), poster);
    expect(first).toEqual({ added: { total: 1, dropped: 0, already: false }, showcase: { kind: 'posted', channelId: SHOWCASE } });
    expect(poster.posts[0]).toMatchObject({
      guildId: GUILD,
      channelId: SHOWCASE,
      authorId: '200000000000000001',
      starredBy: '200000000000000002',
      spoiler: false,
    });
    expect(poster.posts[0]?.link).toBe(`https://discord.com/channels/${GUILD}/100000000000000002/500000000000000001`);
    const second = await favorites.star(order({ owner: { guildId: GUILD, userId: '200000000000000003' } }), poster);
    expect(second.showcase).toEqual({ kind: 'already', channelId: SHOWCASE });
    expect(poster.posts).toHaveLength(1);
    expect(downloads).toHaveLength(1);
    expect(memory.inUse).toBe(0);
  });

  it('checks the showcase channel’s gates before anything is downloaded', async () => {
    const cases: [Partial<ServerSettings>, Partial<StarOrder>, ShowcaseChannel | undefined, string][] = [
      [{ showcaseChannelId: SHOWCASE, channels: { mode: 'only', ids: ['100000000000000002'] } }, {}, { nsfw: false, botCanPost: true }, 'channelRules'],
      [{ showcaseChannelId: SHOWCASE }, { lowModeration: true }, { nsfw: false, botCanPost: true }, 'ageRestricted'],
      [{ showcaseChannelId: SHOWCASE }, {}, { nsfw: false, botCanPost: false }, 'noAccess'],
      [{ showcaseChannelId: SHOWCASE }, {}, undefined, 'gone'],
    ];
    for (const [settings, overrides, place, reason] of cases) {
      const { favorites, poster, downloads } = await setup(settings);
      poster.place = place;
      const outcome = await favorites.star(order(overrides), poster);
      expect(outcome.showcase, reason).toEqual({ kind: 'refused', channelId: SHOWCASE, reason });
      expect(outcome.added.total).toBe(1);
      expect(downloads, reason).toEqual([]);
    }
    const { favorites, poster } = await setup();
    poster.place = { nsfw: true, botCanPost: true };
    expect((await favorites.star(order({ lowModeration: true }), poster)).showcase.kind).toBe('posted');
  });

  it('posts as a spoiler where the server’s spoiler channels say, and nothing where no showcase is set or outside servers', async () => {
    const spoilers = await setup({ showcaseChannelId: SHOWCASE, spoilerChannelIds: [SHOWCASE] });
    await spoilers.favorites.star(order(), spoilers.poster);
    expect(spoilers.poster.posts[0]?.spoiler).toBe(true);
    const none = await setup({});
    expect((await none.favorites.star(order(), none.poster)).showcase).toEqual({ kind: 'none' });
    const dm = await setup();
    expect((await dm.favorites.star(order({ owner: { guildId: null, userId: '200000000000000002' } }), dm.poster)).showcase).toEqual({ kind: 'none' });
    expect(await dm.favorites.list({ guildId: null, userId: '200000000000000002' })).toMatchObject([{ jobId: 'job-1', prompt: 'a lighthouse at dusk' }]);
  });

  it('gives a failed post’s claim back, saying why', async () => {
    const { favorites, poster, memory } = await setup();
    poster.failure = new ShowcasePostError('noAccess');
    expect((await favorites.star(order(), poster)).showcase).toEqual({ kind: 'refused', channelId: SHOWCASE, reason: 'noAccess' });
    poster.failure = new Error('socket hang up');
    expect((await favorites.star(order(), poster)).showcase).toMatchObject({ kind: 'refused', reason: 'failed' });
    poster.failure = undefined;
    expect((await favorites.star(order(), poster)).showcase.kind).toBe('posted');
    expect(memory.inUse).toBe(0);
  });

  it('limits each member to 10 stars a minute, saying when they may star again', async () => {
    const { favorites, poster, clock } = await setup({});
    for (let i = 0; i < 10; i++) await favorites.star(order({ jobId: `job-${i}` }), poster);
    const refused = await favorites.star(order({ jobId: 'job-x' }), poster).catch((err: unknown) => err as UserFacingError);
    expect(refused).toBeInstanceOf(UserFacingError);
    expect(refused).toMatchObject({ identifier: 'favorite.tooFast', context: { resetsAt: 1_060_000 } });
    // Another member is not held back; the member may star again once the minute has passed.
    await favorites.star(order({ owner: { guildId: GUILD, userId: '200000000000000009' } }), poster);
    clock.advance(60_000);
    expect((await favorites.star(order({ jobId: 'job-x' }), poster)).added.total).toBe(11);
  });

  it('pages the member’s favorites ten at a time, newest first, and limits removals to 10 a minute on their own', async () => {
    const { favorites, poster, clock } = await setup({});
    for (let i = 0; i < 10; i++) {
      await favorites.star(order({ jobId: `job-${i}` }), poster);
      clock.advance(1);
    }
    clock.advance(60_000);
    for (let i = 10; i < 12; i++) await favorites.star(order({ jobId: `job-${i}` }), poster);
    const owner = order().owner;
    const first = await favorites.page(owner, 0);
    expect(first).toMatchObject({ page: 0, pages: 2, total: 12 });
    expect(first.entries.map((e) => e.jobId)).toEqual(['job-11', 'job-10', ...Array.from({ length: 8 }, (_, i) => `job-${9 - i}`)]);
    expect((await favorites.page(owner, 5, first.asOf)).entries.map((e) => e.jobId)).toEqual(['job-1', 'job-0']);
    for (let i = 0; i < 10; i++) expect((await favorites.remove(owner, `job-${i}`)).removed).toBe(true);
    const refused = await favorites.remove(owner, 'job-10').catch((err: unknown) => err as UserFacingError);
    expect(refused).toMatchObject({ identifier: 'favorite.removeTooFast', context: { resetsAt: clock.now() + 60_000 } });
    // Stars are counted apart: the member may still star.
    expect((await favorites.star(order({ jobId: 'job-12' }), poster)).added.total).toBe(3);
    clock.advance(60_000);
    expect(await favorites.remove(owner, 'job-10')).toMatchObject({ removed: true, total: 2 });
  });
});
