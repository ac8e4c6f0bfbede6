import { describe, expect, it } from 'vitest';
import { parseStorageUrl } from '../../src/storage/storage-url.js';

describe('parseStorageUrl', () => {
  it('resolves relative and absolute sqlite paths', () => {
    expect(parseStorageUrl('sqlite://data/bot.sqlite', '/srv/bot')).toMatchObject({ scheme: 'sqlite', file: '/srv/bot/data/bot.sqlite' });
    expect(parseStorageUrl('sqlite:///var/lib/bot.sqlite', '/srv/bot')).toMatchObject({ file: '/var/lib/bot.sqlite' });
  });

  it.each([
    ['redis://:pw@cache:6380/2', 'redis', 'redis://cache:6380/2'],
    ['rediss://user:pw@cache.example', 'redis', 'rediss://cache.example'],
    ['postgres://bot:pw@db:5432/bot?sslmode=require', 'postgres', 'postgres://db:5432/bot'],
    ['postgresql://db/bot', 'postgres', 'postgresql://db/bot'],
    ['memory://', 'memory', 'memory://'],
  ])('GIVEN %s THEN scheme %s displayed as %s without credentials', (url, scheme, display) => {
    expect(parseStorageUrl(url)).toMatchObject({ scheme, display });
  });

  it.each(['mysql://u:secret@db/x', 'secret', 'sqlite://', 'redis://:secret@'])('GIVEN %s THEN a clear error that never echoes it', (url) => {
    expect(() => parseStorageUrl(url)).toThrow(/storage URL/);
    try {
      parseStorageUrl(url);
    } catch (error) {
      expect(String(error)).not.toContain('secret');
    }
  });
});
