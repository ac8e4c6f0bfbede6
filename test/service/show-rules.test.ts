/**
 * /show's rules (show-rules.ts): the target channel's channel rules, `moderation:low` results only in age-restricted
 * channels (entries without a level count as low), the member's Attach Files permission, and the target's spoilers.
 */
import { describe, expect, it } from 'vitest';
import { UserFacingError } from '../../src/errors.js';
import { DEFAULT_SETTINGS, ServerSettings } from '../../src/core/server-settings.js';
import { checkShow, type ShowPlace } from '../../src/service/show-rules.js';

const GENERAL = '300000000000000001';
const STAFF = '300000000000000002';
const here: ShowPlace = { channelId: GENERAL, parentUnknown: false, ageRestricted: false, canAttachFiles: true };
const auto = { moderation: 'auto' as const };
const low = { moderation: 'low' as const };

describe('checkShow', () => {
  it('lets an ordinary result be shown in an ordinary channel, without spoilers', () => {
    expect(checkShow(auto, DEFAULT_SETTINGS, here)).toEqual({ spoiler: false });
  });

  it('shows a moderation:low result only in an age-restricted channel or a direct message', () => {
    expect(() => checkShow(low, DEFAULT_SETTINGS, here)).toThrow(new UserFacingError('show.ageRestrictedOnly'));
    expect(checkShow(low, DEFAULT_SETTINGS, { ...here, ageRestricted: true })).toEqual({ spoiler: false });
    expect(checkShow(low, DEFAULT_SETTINGS, { ...here, channelId: null })).toEqual({ spoiler: false });
  });

  it('treats an entry recorded without its level as moderation:low', () => {
    expect(() => checkShow({}, DEFAULT_SETTINGS, here)).toThrow(new UserFacingError('show.ageRestrictedOnly'));
  });

  it("runs the target channel's channel rules, failing closed in a thread whose parent is unknown", () => {
    const except = ServerSettings.parse({ channels: { mode: 'except', ids: [STAFF] } });
    expect(() => checkShow(auto, except, { ...here, channelId: STAFF })).toThrow(UserFacingError);
    expect(checkShow(auto, except, here)).toEqual({ spoiler: false });
    expect(() => checkShow(auto, except, { ...here, parentUnknown: true })).toThrow(new UserFacingError('settings.threadUnknown'));
  });

  it('refuses where the member may not attach files', () => {
    expect(() => checkShow(auto, DEFAULT_SETTINGS, { ...here, canAttachFiles: false })).toThrow(new UserFacingError('show.noAttachFiles'));
  });

  it("applies the target channel's spoiler setting", () => {
    const spoilers = ServerSettings.parse({ spoilerChannelIds: [GENERAL] });
    expect(checkShow(auto, spoilers, here)).toEqual({ spoiler: true });
    expect(checkShow(auto, spoilers, { ...here, channelId: STAFF })).toEqual({ spoiler: false });
  });
});
