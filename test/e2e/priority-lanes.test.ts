/**
 * Priority lanes end to end (issue 32): admins give server boosters and chosen roles a priority lane and larger
 * limits with /settings priority; a flood of jobs from a priority role goes first, yet an ordinary member's job still
 * starts within its fair share (one start in every four). Real discord.js against the Discord emulator, the real
 * gateway client against the gateway emulator, one process and one store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionContext, SlashOption } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { acceptedAcks, ephemeralError, lastText, resultPost, texts } from './support.js';

describe('priority lanes, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      // Three servers: twelve roles to give perks to, two more than a server may.
      discord: { thirdGuild: true },
      env: { MAX_CONCURRENT_JOBS: '1', MAX_RUNNING_PER_MEMBER: '1', MAX_QUEUED_PER_MEMBER: '5', QUOTA_DEFAULT_LIMIT: '4' },
    });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const priority = async (options: SlashOption[]): Promise<string> => {
    const handle = h.discord.slash('settings', [{ name: 'priority', type: 1, options }], { user: h.discord.fixtures.admin });
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200) || x.acks.some((a) => a.type === 4));
    return lastText(handle);
  };
  const quotaShown = async (ctx: InteractionContext): Promise<string> => {
    const handle = h.discord.slash('quota', [{ name: 'show', type: 1, options: [] }], ctx);
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200));
    return lastText(handle);
  };
  const imagine = (prompt: string, ctx: InteractionContext) => h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: prompt }], ctx);

  it('sets, shows and removes the perks of boosters and roles, refusing what it cannot keep', async () => {
    const { roles } = h.discord.fixtures.guild;
    expect(await priority([{ name: 'lane', type: 3, value: 'priority' }])).toContain("That role doesn't work: name a role, or set boosters to true.");
    expect(
      await priority([
        { name: 'boosters', type: 5, value: true },
        { name: 'quota-multiplier', type: 4, value: 2 },
      ]),
    ).toContain('Priority perks: server boosters: normal lane, images ×2, money ×1 (priority jobs start first;');
    const shown = await priority([
      { name: 'role', type: 8, value: roles.vip.id },
      { name: 'lane', type: 3, value: 'priority' },
    ]);
    expect(shown).toContain(`server boosters: normal lane, images ×2, money ×1 · <@&${roles.vip.id}>: priority lane, images ×1, money ×1`);
    expect(shown).toContain('everyone else keeps at least one start in every 4');

    // Ten roles at most: the vip role and nine more fit, the eleventh is refused and nothing changes.
    const others = [h.discord.fixtures.guild, h.discord.fixtures.otherGuild, h.discord.fixtures.thirdGuild]
      .flatMap((guild) => Object.values(guild.roles))
      .filter((role) => role.id !== roles.vip.id);
    for (const role of others.slice(0, 9))
      await priority([
        { name: 'role', type: 8, value: role.id },
        { name: 'money-multiplier', type: 4, value: 3 },
      ]);
    const refused = await priority([
      { name: 'role', type: 8, value: others[9]?.id ?? '' },
      { name: 'lane', type: 3, value: 'priority' },
    ]);
    expect(refused).toContain('at most 10 roles can have perks');
    expect(await priority([{ name: 'role', type: 8, value: others[9]?.id ?? '' }])).not.toContain(`<@&${others[9]?.id ?? ''}>`);
    // A grant of nothing removes the role: nine are left.
    for (const role of others.slice(0, 9)) await priority([{ name: 'role', type: 8, value: role.id }]);
    const after = await priority([
      { name: 'boosters', type: 5, value: true },
      { name: 'quota-multiplier', type: 4, value: 2 },
    ]);
    expect(after).toContain(`server boosters: normal lane, images ×2, money ×1 · <@&${roles.vip.id}>: priority lane, images ×1, money ×1 (`);
  });

  it('multiplies a booster’s image limit, read from the premium_since Discord sends with their interaction', async () => {
    const booster = h.discord.fixtures.members[4];
    if (booster === undefined) throw new Error('fixture member missing');
    expect(await quotaShown({ user: booster })).toContain('You have 4 of 4 images left');
    expect(await quotaShown({ user: booster, premiumSince: '2025-03-01T00:00:00.000000+00:00' })).toContain('You have 8 of 8 images left');
    const boosted = imagine('one', { user: booster, premiumSince: '2025-03-01T00:00:00.000000+00:00' });
    const many = h.discord.slash(
      'imagine',
      [
        { name: 'prompt', type: 3, value: 'six at once' },
        { name: 'count', type: 4, value: 6 },
      ],
      { user: booster, premiumSince: '2025-03-01T00:00:00.000000+00:00' },
    );
    await Promise.all([boosted, many].map((x) => x.waitFor((y) => resultPost(y) !== undefined)));
    expect(resultPost(many)?.files).toHaveLength(6);
    // Not boosting any more: the limit as set, already used up.
    const plain = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'one more' }], { user: booster });
    await plain.waitFor((x) => ephemeralError(x) !== undefined);
    expect(ephemeralError(plain)).toContain('0 of 4 left');
  });

  it('starts a priority flood first, yet an ordinary member’s job within its fair share', async () => {
    const vip = h.discord.fixtures.guild.roles.vip.id;
    await priority([
      { name: 'role', type: 8, value: vip },
      { name: 'lane', type: 3, value: 'priority' },
    ]);
    const [p1, p2, p3, p4, , ordinary] = h.discord.fixtures.members;
    if (!p1 || !p2 || !p3 || !p4 || !ordinary) throw new Error('fixture members missing');
    const held = h.gateway.hold();
    const running = imagine('F0', { user: h.discord.fixtures.member });
    await held.arrived;
    // Four members of the priority role queue two jobs each behind the running one…
    const flood = [p1, p2, p3, p4].flatMap((user, m) => [1, 2].map((i) => imagine(`P${m + 1}${i}`, { user, roles: [vip] })));
    await Promise.all(flood.map((x) => x.waitFor((y) => texts(y).some((t) => t.includes('Queued')))));
    // …then an ordinary member asks: three priority jobs go before theirs, not all eight (strict priority), and not
    // one of each priority member's (members taking turns without lanes).
    const mine = imagine('N1', { user: ordinary });
    await mine.waitFor((y) => texts(y).some((t) => t.includes('Queued')));
    expect(texts(mine).find((t) => t.includes('Queued'))).toContain('position 4');
    held.release();
    await Promise.all([running, ...flood, mine].map((x) => x.waitFor((y) => resultPost(y) !== undefined)));
    const order = h.gateway
      .imageRequests()
      .map((r) => String(r.json?.['prompt']))
      .filter((p) => /^[FPN]\d+$/.test(p));
    expect(order).toHaveLength(10);
    expect(order.map((p) => p[0]).join('')).toBe('FPPPNPPPPP');
    for (const x of [running, ...flood, mine]) expect(acceptedAcks(x)).toBe(1);
  });

  it('sent nothing the platforms would reject', () => {
    expect(h.discord.specViolations).toEqual([]);
    expect(h.gateway.specViolations).toEqual([]);
  });
});
