/**
 * A gateway that refuses streaming (a 400 naming `stream`) still delivers: one refused call, one good call without
 * streaming, charged once; the member sees no note about it, and the next job of that model asks without streaming.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { resultPost, quotaText, settled, textOf } from './support.js';

describe('a gateway that refuses streaming, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ gateway: { unsupportedParams: ['stream'] }, env: { GATEWAY_PARTIAL_IMAGES: '1', QUOTA_DEFAULT_LIMIT: '5' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it('delivers, charged once, and asks without streaming next time', async () => {
    const user = h.discord.fixtures.member;
    const first = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'a lighthouse' }], { user });
    await first.waitFor(settled);
    expect(resultPost(first)?.files).toHaveLength(1);
    expect(textOf(resultPost(first)?.payload)).toContain('a lighthouse');
    expect(textOf(resultPost(first)?.payload)).not.toMatch(/stream|partial/i);
    expect(h.gateway.imageRequests().map((r) => r.json?.['stream'] ?? false)).toEqual([true, false]);
    expect(await quotaText(h.discord, user)).toContain('4 of 5 images left');

    const second = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'a harbour' }], { user });
    await second.waitFor(settled);
    expect(resultPost(second)?.files).toHaveLength(1);
    expect(h.gateway.imageRequests().map((r) => r.json?.['stream'] ?? false)).toEqual([true, false, false]);
  });
});
