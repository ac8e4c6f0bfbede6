import { describe, expect, it } from 'vitest';
import { FavoriteEntry, favoritePrompt, MAX_FAVORITE_PROMPT, MAX_FAVORITES, withFavorite, type FavoritesRecord } from '../../src/core/favorites.js';

const entry = (i: number) => ({
  jobId: `job-${i}`,
  prompt: `prompt ${i}`,
  authorId: '200000000000000001',
  guildId: '100000000000000001',
  channelId: '100000000000000002',
  messageId: '500000000000000001',
  starredAt: i,
});

describe('favorites', () => {
  it(`keep the newest ${MAX_FAVORITES}, a new one pushing out the oldest, and say so`, () => {
    let record: FavoritesRecord | undefined;
    for (let i = 0; i < MAX_FAVORITES; i++) {
      const next = withFavorite(record, entry(i));
      expect(next.added.dropped).toBe(0);
      record = next.record;
    }
    const full = withFavorite(record, entry(MAX_FAVORITES));
    expect(full.added).toEqual({ total: MAX_FAVORITES, dropped: 1, already: false });
    expect(full.record.entries[0]?.jobId).toBe(`job-${MAX_FAVORITES}`);
    expect(full.record.entries.some((e) => e.jobId === 'job-0')).toBe(false);
  });

  it('keep a result starred again once, moved to the top', () => {
    const { record } = withFavorite(withFavorite(undefined, entry(1)).record, entry(2));
    const again = withFavorite(record, { ...entry(1), starredAt: 9 });
    expect(again.added).toEqual({ total: 2, dropped: 0, already: true });
    expect(again.record.entries.map((e) => e.jobId)).toEqual(['job-1', 'job-2']);
  });

  it('keep a bounded prompt on one line, and refuse an entry beyond the bounds', () => {
    const kept = favoritePrompt(`a\n${'🦊'.repeat(400)}`);
    expect(kept.length).toBeLessThanOrEqual(MAX_FAVORITE_PROMPT);
    expect(kept).toMatch(/^a 🦊/);
    expect(kept.endsWith('…')).toBe(true);
    expect(FavoriteEntry.safeParse({ ...entry(1), prompt: kept }).success).toBe(true);
    expect(FavoriteEntry.safeParse({ ...entry(1), prompt: 'x'.repeat(MAX_FAVORITE_PROMPT + 1) }).success).toBe(false);
    expect(FavoriteEntry.safeParse({ ...entry(1), jobId: 'x'.repeat(65) }).success).toBe(false);
  });
});
