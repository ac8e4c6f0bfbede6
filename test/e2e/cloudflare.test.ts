/**
 * A relay behind Cloudflare (issue 27), end to end: a generation Cloudflare cuts at its timeout (524) is answered
 * once, never sent again, explained in the member's language and not charged; Cloudflare's own 522 is retried once
 * (not up to GATEWAY_MAX_RETRIES), the same status from a relay without Cloudflare in front never.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Behaviour } from '../emulators/gateway/index.js';
import { imagineOptions, startHarness, type Harness } from './harness.js';
import { acceptedAcks, ephemeralError, resultPost, quotaText, settled } from './support.js';

/** Runs one /imagine of a member of its own whose gateway answers are `behaviours`; counts its POSTs. */
async function imagineWith(h: Harness, index: number, behaviours: Behaviour[], locale?: string) {
  const user = h.discord.fixtures.members[index % h.discord.fixtures.members.length]!;
  const before = h.gateway.imageRequests().length;
  h.gateway.enqueue(...behaviours);
  const handle = h.discord.slash('imagine', imagineOptions(`cloudflare case ${index}`, [{ name: 'quality', type: 3, value: 'high' }]), {
    user,
    ...(locale ? { locale } : {}),
  });
  await handle.waitFor(settled);
  expect(acceptedAcks(handle)).toBe(1);
  return { handle, user, posts: h.gateway.imageRequests().length - before };
}

describe('a relay behind Cloudflare', () => {
  let h: Harness;
  beforeAll(async () => {
    // Retries allowed (two), to show a 522 gets one only; Cloudflare's cut shortened from 100 s to 200 ms.
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '100', GATEWAY_MAX_RETRIES: '2' }, gateway: { cloudflare: { timeoutMs: 200 } } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it('answers a generation Cloudflare cut (524) once, never again, tells the member why and charges nothing', async () => {
    // Two minutes of work, as a high-quality gpt-image-2 image takes: only Cloudflare's cut ends it while the test runs.
    const { handle, user, posts } = await imagineWith(h, 0, [{ type: 'success', delayMs: 120_000 }]);
    expect(posts).toBe(1);
    const told = ephemeralError(handle);
    expect(told).toContain('The image service cut this generation off because it ran too long');
    expect(told).toContain('A lower quality or a smaller size finishes sooner. You were not charged.');
    expect(resultPost(handle)).toBeUndefined();
    expect(await quotaText(h.discord, user)).toContain('100 of 100 images left');
    const failed = await h.waitForLog((entry) => entry.msg === 'image request failed' && entry['status'] === 524);
    expect(failed).toMatchObject({ category: 'timed_out', requestId: expect.stringMatching(/-FRA$/) as string });
  });

  it('tells a member writing in Japanese in Japanese', async () => {
    const { handle, posts } = await imagineWith(h, 1, [{ type: 'error', preset: 'cloudflare_524' }], 'ja');
    expect(posts).toBe(1);
    expect(ephemeralError(handle)).toContain('品質を下げるかサイズを小さくすると早く終わります。料金はかかっていません。');
  });

  it('retries its own 522 once and delivers, charging the one image', async () => {
    const { handle, user, posts } = await imagineWith(h, 2, [{ type: 'error', preset: 'cloudflare_522' }]);
    expect(posts).toBe(2);
    expect(resultPost(handle)?.files).toHaveLength(1);
    expect(await quotaText(h.discord, user)).toContain('99 of 100 images left');
  });

  it('retries its own 522 only once, though two retries are allowed, then explains and charges nothing', async () => {
    const { handle, user, posts } = await imagineWith(h, 3, [
      { type: 'error', preset: 'cloudflare_522' },
      { type: 'error', preset: 'cloudflare_522' },
    ]);
    expect(posts).toBe(2);
    expect(ephemeralError(handle)).toContain('ran into a problem');
    expect(await quotaText(h.discord, user)).toContain('100 of 100 images left');
  });
});

describe('a relay without Cloudflare in front', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '100', GATEWAY_MAX_RETRIES: '2' }, gateway: { cloudflare: undefined } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it('does not retry a 522 without Cloudflare’s headers (a relay passing on its upstream’s), and charges nothing', async () => {
    const { handle, user, posts } = await imagineWith(h, 0, [{ type: 'error', preset: 'origin_522' }]);
    expect(posts).toBe(1);
    expect(ephemeralError(handle)).toContain('ran into a problem');
    expect(resultPost(handle)).toBeUndefined();
    expect(await quotaText(h.discord, user)).toContain('100 of 100 images left');
  });
});
