/**
 * The deferred acknowledgement is sent at once but not waited for: quota and the gateway request overlap its round
 * trip, every edit still comes after it, and a lost acknowledgement cancels the job without charging.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionHandle } from '../emulators/discord/index.js';
import { imagineOptions, startHarness, type Harness } from './harness.js';
import { acceptedAcks, ephemeralError, resultPost, quotaText } from './support.js';

const callbackOf = (handle: InteractionHandle) => ({ method: 'POST', path: new RegExp(`^/interactions/${handle.id}/[^/]+/callback$`) });

describe('acknowledging without waiting, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '5' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  it('sends the gateway request while the acknowledgement is still on its way, and edits only after it landed', async () => {
    const user = h.discord.fixtures.users.member;
    const gatewayHeld = h.gateway.hold();
    const handle = h.discord.slash('imagine', imagineOptions('overlap'), { user });
    const ackHeld = h.discord.holdNext(callbackOf(handle));

    await ackHeld.arrived;
    await gatewayHeld.arrived;
    // The gateway has the request, and Discord has not yet taken the acknowledgement.
    expect(handle.acks).toEqual([]);
    ackHeld.release();
    gatewayHeld.release();

    await handle.waitFor((x) => resultPost(x) !== undefined);
    expect(acceptedAcks(handle)).toBe(1);
    expect(handle.edits.map((e) => e.status)).toEqual(handle.edits.map(() => 200));
    expect(await quotaText(h.discord, user)).toContain('4 of 5 images left');
  });

  it('answers an error that comes before the acknowledgement landed by replacing the placeholder privately', async () => {
    const user = h.discord.fixtures.users.member2;
    // More images than the quota allows: refused right after the acknowledgement was sent.
    const handle = h.discord.slash('imagine', imagineOptions('too many', [{ name: 'count', type: 4, value: 6 }]), { user });
    const ackHeld = h.discord.holdNext(callbackOf(handle));
    await ackHeld.arrived;
    ackHeld.release();

    await handle.waitFor((x) => ephemeralError(x) !== undefined);
    expect(acceptedAcks(handle)).toBe(1);
    expect(handle.acks[0]?.type).toBe(5);
    expect(ephemeralError(handle)).toContain("You've used your images");
    expect(handle.edits.filter((e) => e.method === 'DELETE' && e.status === 204)).toHaveLength(1);
  });

  it('cancels the job and charges nothing when Discord refuses the acknowledgement', async () => {
    const user = h.discord.fixtures.users.owner;
    const before = await quotaText(h.discord, user);
    const gatewayHeld = h.gateway.hold();
    const handle = h.discord.slash('imagine', imagineOptions('lost'), { user });
    // What Discord answers an acknowledgement that came too late (discord.js does not retry a 4xx).
    h.discord.failNext(callbackOf(handle), { status: 404, body: { message: 'Unknown interaction', code: 10062 } });

    // The job stops (its gateway request, if sent, is abandoned) and the member is told privately.
    await handle.waitFor((x) => ephemeralError(x) !== undefined);
    gatewayHeld.release();
    expect(ephemeralError(handle)).toContain("Discord didn't confirm your command");
    expect(resultPost(handle)).toBeUndefined();
    expect(handle.edits).toEqual([]);
    expect(await quotaText(h.discord, user)).toBe(before);
  });
});
