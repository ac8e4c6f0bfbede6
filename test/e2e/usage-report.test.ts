/**
 * /usage end to end (issue 17): after a scripted run on one store, the figures equal the jobs that ran (images,
 * members, models, cost reported and estimated, refusals, failures), a member's own figures are theirs, and the CSV
 * parses with the same totals. Non-admins are refused.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionHandle, SlashOption, UserFixture } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { lastText, settled } from './support.js';

describe('/usage, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'profiles-')), 'profiles.json');
    // An operator's price for gpt-image-2, so costs the gateway does not report are estimated.
    writeFileSync(file, JSON.stringify({ 'gpt-image-2': { prices: { inputTextPerMillion: 5, outputPerMillion: 40 } } }));
    h = await startHarness({ sqlite: true, env: { QUOTA_DEFAULT_LIMIT: '4', MODEL_PROFILES_FILE: file, LOG_LEVEL: 'debug' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const imagine = async (user: UserFixture, options: SlashOption[] = []): Promise<InteractionHandle> => {
    const handle = h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'a lighthouse' }, { name: 'quality', type: 3, value: 'low' }, ...options], {
      user,
    });
    await handle.waitFor(settled);
    // The job is counted after its reply: wait until the bot is done with the interaction.
    await h.waitForLog((entry) => entry['interactionId'] === handle.id && (entry.msg === 'interaction handled' || entry.msg === 'user-facing error'));
    return handle;
  };
  const usage = async (options: SlashOption[], user = h.discord.fixtures.admin) => {
    const handle = h.discord.slash('usage', options, { user });
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200) || x.acks.some((a) => a.type === 4));
    return handle;
  };

  /** The CSV the reply attached (beside the chart). */
  const csvOf = (handle: InteractionHandle): string =>
    handle.edits
      .flatMap((e) => e.files)
      .find((f) => f.filename.endsWith('.csv'))!
      .bytes.toString('utf8');

  it("reports the period's figures, a member's own, and a CSV with the same totals", async () => {
    const { member, member2 } = h.discord.fixtures.users;
    // member: 2 images with a reported cost, 1 estimated; member2: 1 image, then a refusal (quota 4 used up by 4).
    h.gateway.enqueue({ type: 'success', usageShape: 'cost' });
    await imagine(member, [{ name: 'count', type: 4, value: 2 }]);
    await imagine(member);
    await imagine(member2, [{ name: 'model', type: 3, value: 'gpt-image-1' }]);
    await imagine(member2, [{ name: 'count', type: 4, value: 4 }]);
    h.gateway.enqueue({ type: 'error', preset: 'server_error' });
    await imagine(member2);

    const report = lastText(await usage([{ name: 'format', type: 3, value: 'csv' }]));
    // 1 image at $5/M in (3 tokens) + $40/M out (272) = 0.010895; gpt-image-1's built-in prices: 3 × $5/M + 272 × $40/M.
    expect(report).toContain('Images: 4 from 3 requests · cost: $0.0421 reported + $0.0218 estimated');
    expect(report).toContain(`Top members: <@${member.id}> 3 ($0.0530), <@${member2.id}> 1 ($0.0109)`);
    expect(report).toContain('By model: `gpt-image-2` 3, `gpt-image-1` 1');
    expect(report).toContain('Refused: `quota.exceeded` 1 · failed: 1');

    const handle = h.discord.slash('usage', [{ name: 'format', type: 3, value: 'csv' }], { user: h.discord.fixtures.admin });
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200 && e.files.some((f) => f.filename.endsWith('.csv'))));
    const csv = csvOf(handle);
    const [header, ...rows] = csv
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    expect(header).toEqual([
      'job',
      'settled_at',
      'user',
      'command',
      'model',
      'size',
      'quality',
      'asked',
      'delivered',
      'cost_usd',
      'cost_source',
      'request_id',
      'prompt_help_model',
      'prompt_help_cost_usd',
      'prompt_help_cost_source',
      'drafting',
      'high_quality_estimate_usd',
    ]);
    const column = (name: string) => header!.indexOf(name);
    // The delivered jobs: the refused one never reached the gateway, the failed one made nothing.
    expect(rows).toHaveLength(3);
    expect(rows.reduce((sum, row) => sum + Number(row[column('delivered')]), 0)).toBe(4);
    expect(rows.reduce((sum, row) => sum + Number(row[column('cost_usd')] ?? 0), 0)).toBeCloseTo(0.0421 + 0.0218, 4);
    expect(rows.map((row) => row[column('user')])).toEqual([member.id, member.id, member2.id]);

    const own = lastText(await usage([{ name: 'user', type: 6, value: member2.id }]));
    expect(own).toContain(`<@${member2.id}>'s usage this month`);
    expect(own).toContain('Images: 1 from 1 request · cost: $0.0109');
    expect(own).toContain('Refused: 1');
  });

  it("reports a role's figures: the jobs of members who held it, and a CSV of theirs only", async () => {
    const { vip, member } = h.discord.fixtures.users;
    const roleId = h.discord.fixtures.guild.roles.vip.id;
    h.gateway.enqueue({ type: 'success', usageShape: 'cost' });
    await imagine(vip);
    const report = lastText(await usage([{ name: 'role', type: 8, value: roleId }]));
    expect(report).toContain(`**Usage of members with <@&${roleId}> this month**`);
    expect(report).toContain('Images: 1 from 1 request · cost: $0.0421');
    expect(report).toContain(`Top members: <@${vip.id}> 1 ($0.0421)`);
    expect(report).not.toContain(member.id);
    const handle = await usage([
      { name: 'role', type: 8, value: roleId },
      { name: 'format', type: 3, value: 'csv' },
    ]);
    const csv = csvOf(handle);
    expect(
      csv
        .trimEnd()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(',')[2]),
    ).toEqual([vip.id]);
    expect(
      lastText(
        await usage([
          { name: 'role', type: 8, value: roleId },
          { name: 'user', type: 6, value: vip.id },
        ]),
      ),
    ).toContain('give a user or a role, not both');
  });

  it('is for admins only', async () => {
    expect(lastText(await usage([], h.discord.fixtures.member))).toContain('Only members with the **Manage Server** permission can do that.');
  });
});
