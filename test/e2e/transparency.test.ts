/**
 * gpt-image-2 no longer makes transparent backgrounds. Its profile says so, so the request is refused before
 * anything is reserved or sent, naming what it takes. Where a profile says otherwise (an operator's file), the
 * gateway's 400 is not "recovered" by dropping the background (an opaque image is not what was asked): the member
 * is told why after the one call, and not charged.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { ephemeralError, quotaText, settled } from './support.js';

const OPTIONS = [
  { name: 'prompt', type: 3, value: 'a sticker of a fox' },
  { name: 'background', type: 3, value: 'transparent' },
];

describe('a model that refuses transparency, end to end', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("is refused by gpt-image-2's profile before any call, naming the backgrounds it takes, and charges nothing", async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '5', DEFAULT_IMAGE_MODEL: 'gpt-image-2' } });
    const user = h.discord.fixtures.member;
    const handle = h.discord.slash('imagine', OPTIONS, { user });
    await handle.waitFor(settled);
    expect(ephemeralError(handle)).toContain("That background doesn't work: gpt-image-2 can't make transparent backgrounds. Allowed: auto, opaque.");
    expect(h.gateway.imageRequests()).toHaveLength(0);
    expect(await quotaText(h.discord, user)).toContain('5 of 5 images left');
  });

  it("where a profile allows it, refuses with the gateway's reason after one call, and charges nothing", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'profiles-')), 'profiles.json');
    writeFileSync(file, JSON.stringify({ 'gpt-image-2': { backgrounds: ['auto', 'opaque', 'transparent'] } }));
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '5', DEFAULT_IMAGE_MODEL: 'gpt-image-2', MODEL_PROFILES_FILE: file } });
    const user = h.discord.fixtures.member;
    const handle = h.discord.slash('imagine', OPTIONS, { user });
    await handle.waitFor(settled);
    expect(ephemeralError(handle)).toContain("This model can't make transparent backgrounds.");
    expect(h.gateway.imageRequests()).toHaveLength(1);
    expect(h.gateway.imageRequests()[0]?.json).toMatchObject({ model: 'gpt-image-2', background: 'transparent' });
    expect(await quotaText(h.discord, user)).toContain('5 of 5 images left');
  });
});
