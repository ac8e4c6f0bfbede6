/**
 * Jobs that outlive Discord's 15-minute interaction token or wait 20 minutes in the queue, end to end on one
 * adjustable clock shared by the bot, its lease renewals and the Discord emulator: the result is handed off to the
 * channel, the member is charged exactly what was delivered, and the renewed reservation holds the quota meanwhile.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionHandle, UserFixture } from '../emulators/discord/index.js';
import type { HeldRequest } from '../emulators/gateway/index.js';
import { flatPng } from '../fakes/images.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { ManualTimers } from '../fakes/manual-timers.js';
import { imagineOptions, startHarness, type Harness } from './harness.js';
import { ephemeralError, resultPost, lastText, quotaText, settled, texts, textOf } from './support.js';

/** A Monday noon (UTC): the hour the tests move through stays inside one quota period. */
const START = '2026-06-01T12:00:00Z';
const MINUTE = 60_000;

describe('long jobs end to end', () => {
  const clock = new ManualClock(START);
  const timers = new ManualTimers(clock);
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      sqlite: true,
      clock,
      leaseTimers: timers,
      discord: { clock },
      env: { QUOTA_DEFAULT_LIMIT: '4', JOB_LEASE_MS: String(MINUTE), MAX_CONCURRENT_JOBS: '1' },
    });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });
  // A failed test must not leave a gateway call held: with one job at a time, it would stall every later test.
  const holds: HeldRequest[] = [];
  afterEach(() => {
    for (const held of holds.splice(0)) held.release();
  });

  function hold(): HeldRequest {
    const held = h.gateway.hold();
    holds.push(held);
    return held;
  }

  /** Starts /imagine with `count` images whose gateway call is held; resolves once the call has reached the gateway. */
  async function heldJob(user: UserFixture, prompt: string, count: number): Promise<{ handle: InteractionHandle; held: HeldRequest }> {
    const held = hold();
    const handle = h.discord.slash('imagine', imagineOptions(prompt, [{ name: 'count', type: 4, value: count }]), { user });
    await handle.waitForAck();
    await held.arrived;
    return { handle, held };
  }

  /** Resolves with the channel post of `handle`'s job once the job has been delivered and its quota settled. */
  async function handedOff(handle: InteractionHandle, prompt: string) {
    const { jobId } = await h.waitForLog((entry) => entry.msg === 'image job accepted' && entry['interactionId'] === handle.id);
    await h.waitForLog((entry) => entry.msg === 'image job delivered' && entry['jobId'] === jobId);
    const post = h.discord.channelPosts.find((p) => textOf(p.payload).includes(prompt));
    expect(post).toBeDefined();
    return post!;
  }

  /** The reply was never touched with an expired token: no delivery through it, nothing refused. */
  function tokenLeftAlone(handle: InteractionHandle): void {
    expect(resultPost(handle)).toBeUndefined();
    expect(handle.edits.filter((e) => e.status >= 400).map((e) => e.status)).toEqual([]);
    expect(handle.followUps).toEqual([]);
  }

  it('hands a job off to the channel after the 15-minute token and charges the images delivered', async () => {
    const user = h.discord.fixtures.members[0]!;
    const { handle, held } = await heldJob(user, 'a very slow pair', 2);
    expect(await quotaText(h.discord, user)).toContain('Used: 0 (2 in progress)');

    await timers.advance(16 * MINUTE);
    expect(await quotaText(h.discord, user)).toContain('Used: 0 (2 in progress)');
    held.release();

    const post = await handedOff(handle, 'a very slow pair');
    expect(post.path).toContain(h.discord.fixtures.guild.channels.general.id);
    expect(textOf(post.payload)).toContain(`<@${user.id}>`);
    expect(post.files).toHaveLength(2);
    tokenLeftAlone(handle);
    const after = await quotaText(h.discord, user);
    expect(after).toContain('2 of 4 images left');
    expect(after).toContain('Used: 2 ·');
  });

  it('charges only what was delivered when the gateway made fewer images than asked, after the hand-off', async () => {
    const user = h.discord.fixtures.members[1]!;
    const { handle, held } = await heldJob(user, 'three asked, one made', 3);
    h.gateway.enqueue(await oneImageAnswer());
    await timers.advance(16 * MINUTE);
    held.release();

    const post = await handedOff(handle, 'three asked, one made');
    expect(post.files).toHaveLength(1);
    tokenLeftAlone(handle);
    const after = await quotaText(h.discord, user);
    expect(after).toContain('3 of 4 images left');
    expect(after).toContain('Used: 1 ·');
  });

  it('holds the quota of a job queued for 20 minutes, then charges exactly what it delivered', async () => {
    const user = h.discord.fixtures.members[2]!;
    const running = await heldJob(user, 'first in line', 2);
    const queued = h.discord.slash('imagine', imagineOptions('twenty minutes later', [{ name: 'count', type: 4, value: 2 }]), { user });
    await queued.waitFor((x) => texts(x).some((t) => t.includes('Queued')));
    const calls = h.gateway.imageRequests().length;

    for (let waited = 5; waited <= 20; waited += 5) {
      await timers.advance(5 * MINUTE);
      const third = h.discord.slash('imagine', imagineOptions(`one more after ${waited} minutes`, [{ name: 'count', type: 4, value: 1 }]), { user });
      // Refused at once; a booking that slipped through would only show as queued.
      await third.waitFor((x) => settled(x) || texts(x).some((t) => t.includes('Queued')));
      expect(ephemeralError(third) ?? lastText(third)).toContain("You've used your images");
    }
    expect(await quotaText(h.discord, user)).toContain('Used: 0 (4 in progress)');
    expect(h.gateway.imageRequests()).toHaveLength(calls);

    const second = hold();
    running.held.release();
    expect((await handedOff(running.handle, 'first in line')).files).toHaveLength(2);
    await second.arrived;
    h.gateway.enqueue(await oneImageAnswer());
    second.release();

    const post = await handedOff(queued, 'twenty minutes later');
    expect(post.files).toHaveLength(1);
    expect(textOf(post.payload)).toContain(`<@${user.id}>`);
    tokenLeftAlone(running.handle);
    tokenLeftAlone(queued);
    const after = await quotaText(h.discord, user);
    expect(after).toContain('1 of 4 images left');
    expect(after).toContain('Used: 3 ·');
    expect(timers.pending).toBe(0);
  });

  it('sent nothing the platforms would reject', () => {
    expect(h.discord.specViolations).toEqual([]);
    expect(h.gateway.specViolations).toEqual([]);
  });
});

/** A gateway answer with one image, whatever was asked for. */
async function oneImageAnswer() {
  const { bytes } = await flatPng();
  const body = JSON.stringify({ created: 1, data: [{ b64_json: bytes.toString('base64') }] });
  return { type: 'raw' as const, status: 200, headers: { 'content-type': 'application/json' }, body };
}
