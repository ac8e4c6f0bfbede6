/**
 * gpt-image-2 no longer makes transparent backgrounds: the gateway's 400 is not "recovered" by dropping the
 * background (an opaque image is not what was asked); the member is told why and not charged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { ephemeralError, quotaText, settled } from './support.js';

describe('a model that refuses transparency, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '5' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it('refuses with the reason after one call, and charges nothing', async () => {
    const user = h.discord.fixtures.member;
    const options = [
      { name: 'prompt', type: 3, value: 'a sticker of a fox' },
      { name: 'background', type: 3, value: 'transparent' },
    ];
    const handle = h.discord.slash('imagine', options, { user });
    await handle.waitFor(settled);
    expect(ephemeralError(handle)).toContain("This model can't make transparent backgrounds.");
    expect(h.gateway.imageRequests()).toHaveLength(1);
    expect(h.gateway.imageRequests()[0]?.json).toMatchObject({ model: 'gpt-image-2', background: 'transparent' });
    expect(await quotaText(h.discord, user)).toContain('5 of 5 images left');
  });
});
