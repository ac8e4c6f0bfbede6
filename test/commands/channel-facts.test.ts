/**
 * The channel an interaction happened in, read from its payload (channel-facts.ts): kept from the raw packet until the
 * interaction is routed (bounded), a thread's parent from `parent_id`, null when unknown; and the server's rules fail
 * closed for a thread whose parent is unknown.
 */
import type { BaseInteraction } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { channelOf, InteractionChannels } from '../../src/commands/channel-facts.js';
import { UserFacingError } from '../../src/errors.js';
import { applySettings, postsSpoilers } from '../../src/service/server-settings.js';
import { DEFAULT_SETTINGS, type ServerSettings } from '../../src/core/server-settings.js';

/** An interaction as channelOf reads it: in a server, nothing in discord.js's cache. */
function interaction(id: string, cached: Record<string, { nsfw: boolean }> = {}): BaseInteraction {
  return { id, inGuild: () => true, channel: null, client: { channels: { cache: new Map(Object.entries(cached)) } } } as unknown as BaseInteraction;
}

const packet = (id: string, channel: Record<string, unknown> | undefined) => ({ t: 'INTERACTION_CREATE', d: { id, ...(channel ? { channel } : {}) } });

describe('InteractionChannels and channelOf', () => {
  it("reads a channel's age restriction and a thread's parent from the payload, not the cache", () => {
    const channels = new InteractionChannels();
    channels.onRaw(packet('1', { id: 'c1', type: 0, nsfw: true }));
    channels.onRaw(packet('2', { id: 't1', type: 11, parent_id: 'c1' }));
    channels.onRaw(packet('3', { id: 't2', type: 12 }));
    const [one, two, three] = ['1', '2', '3'].map((id) => interaction(id, { c1: { nsfw: true } }));
    for (const i of [one!, two!, three!]) channels.attach(i);
    expect(channelOf(one!)).toEqual({ parentChannelId: undefined, ageRestricted: true });
    expect(channelOf(two!)).toEqual({ parentChannelId: 'c1', ageRestricted: true });
    // A thread whose parent the payload does not name, and nothing cached: unknown, and not age-restricted.
    expect(channelOf(three!)).toEqual({ parentChannelId: null, ageRestricted: false });
    expect(channels.size).toBe(0);
  });

  it('keeps only interactions with a channel, and at most a thousand at once', () => {
    const channels = new InteractionChannels();
    channels.onRaw({ t: 'MESSAGE_CREATE', d: { id: 'm' } });
    channels.onRaw(packet('x', undefined));
    expect(channels.size).toBe(0);
    for (let i = 0; i < 1_500; i += 1) channels.onRaw(packet(String(i), { id: 'c', type: 0 }));
    expect(channels.size).toBe(1_000);
  });
});

describe('the channel rules in a thread whose parent is unknown', () => {
  const place = { channelId: 't2', parentUnknown: true, manager: false, ageRestricted: false, roleIds: [] };
  const settings = (channels: ServerSettings['channels']): ServerSettings => ({ ...DEFAULT_SETTINGS, channels });

  it('refuse, for except and only alike, and not when generation is allowed everywhere', () => {
    for (const mode of ['except', 'only'] as const) {
      const refused = (() => {
        try {
          applySettings({ prompt: 'p' }, settings({ mode, ids: ['c1'] }), place);
          return undefined;
        } catch (err) {
          return err;
        }
      })();
      expect(refused).toBeInstanceOf(UserFacingError);
      expect((refused as UserFacingError).identifier).toBe('settings.threadUnknown');
    }
    expect(applySettings({ prompt: 'p' }, settings({ mode: 'everywhere', ids: [] }), place)).toMatchObject({ prompt: 'p' });
  });

  it('post spoilers whenever the server has spoiler channels', () => {
    expect(postsSpoilers({ ...DEFAULT_SETTINGS, spoilerChannelIds: ['c9'] }, 't2', true)).toBe(true);
    expect(postsSpoilers(DEFAULT_SETTINGS, 't2', true)).toBe(false);
    expect(postsSpoilers({ ...DEFAULT_SETTINGS, spoilerChannelIds: ['c9'] }, 'c1')).toBe(false);
  });
});
