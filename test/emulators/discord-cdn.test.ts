import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startDiscordEmulator } from './discord/index.js';

describe('the Discord emulator’s CDN', () => {
  it('serves every byte with its Content-Length when it is slowed down', async () => {
    const discord = await startDiscordEmulator({ log: false, cdnBytesPerSecond: 2_000_000 });
    try {
      const bytes = Buffer.alloc(700_000, 7);
      const attachment = discord.uploadAttachment(bytes, 'slow.png', 'image/png');
      const res = await request(attachment.url);
      expect(res.headers['content-length']).toBe('700000');
      expect(Buffer.from(await res.body.arrayBuffer()).equals(bytes)).toBe(true);
      expect(discord.cdnFetches()).toHaveLength(1);
    } finally {
      await discord.close();
    }
  });
});
