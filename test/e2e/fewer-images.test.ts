/**
 * Fewer images than asked (issue 27), end to end: an upstream that makes 1 image for `count:3`, and a fan-out relay
 * whose single-image calls partly failed. The images that came back are delivered, charged one by one, and the card
 * says how many came back and how many were charged, in the member's language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SuccessBehaviour } from '../emulators/gateway/index.js';
import { imagineOptions, startHarness, type Harness } from './harness.js';
import type { InteractionHandle } from '../emulators/discord/index.js';
import { acceptedAcks, quotaText, settled, textOf } from './support.js';

/** The card with the images, in whatever language its caption is. */
const card = (handle: InteractionHandle) => [...handle.edits, ...handle.followUps].filter((e) => e.status === 200 && e.files.length > 0).at(-1);

describe('fewer images than asked, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '100' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  let n = 0;
  /** One `/imagine count:3` of a member of its own, answered by `behaviour`. */
  async function imagineThree(behaviour: SuccessBehaviour, locale?: string) {
    const user = h.discord.fixtures.members[n++ % h.discord.fixtures.members.length]!;
    const before = h.gateway.imageRequests().length;
    h.gateway.enqueue(behaviour);
    const handle = h.discord.slash('imagine', imagineOptions(`three asked ${n}`, [{ name: 'count', type: 4, value: 3 }]), {
      user,
      ...(locale ? { locale } : {}),
    });
    await handle.waitFor((x) => card(x) !== undefined || settled(x));
    expect(acceptedAcks(handle)).toBe(1);
    expect(h.gateway.imageRequests().length - before).toBe(1);
    expect(h.gateway.imageRequests().at(-1)?.json).toMatchObject({ n: 3 });
    return { card: card(handle), user };
  }

  it('delivers the 1 image an upstream made for count:3, charges 1 and says so on the card', async () => {
    const { card, user } = await imagineThree({ type: 'success', imageCount: 1 });
    expect(card?.files).toHaveLength(1);
    expect(textOf(card?.payload)).toContain('-# 1 of 3 images came back from the service; you were charged for 1 image.');
    const quota = await quotaText(h.discord, user);
    expect(quota).toContain('99 of 100 images left');
    expect(quota).toContain('Used: 1 ·');
  });

  it('delivers what a fan-out relay’s calls made when one failed, charges 2, and says so in the member’s language', async () => {
    const { card, user } = await imagineThree({ type: 'success', fanOut: { failed: 1 } }, 'fr');
    expect(card?.files).toHaveLength(2);
    expect(textOf(card?.payload)).toContain('-# Sur les 3 images demandées, le service en a renvoyé 2 ; 2 images vous ont été facturées.');
    expect(await quotaText(h.discord, user)).toContain('98 of 100 images left');
  });

  it('says nothing of the kind when all three came back', async () => {
    const { card, user } = await imagineThree({ type: 'success', fanOut: {} });
    expect(card?.files).toHaveLength(3);
    expect(textOf(card?.payload)).not.toContain('came back');
    expect(await quotaText(h.discord, user)).toContain('97 of 100 images left');
  });
});
