/**
 * Prompt help is metered (issue 29), end to end: an enhance call is held with the images in the member's money limit
 * and charged as the chat model's answer reports, even when the image model then refuses the prompt (the images are
 * given back, the chat call is not); the member sees it in /quota. Real discord.js client, both emulators, the chat
 * model priced in MODEL_PROFILES_FILE so a cent shows. Describe too: a member over their money limit cannot describe,
 * and an admin caps describes per member and period.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionHandle, SlashOption } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { ephemeralError, lastText, quotaText, settled, textOf } from './support.js';

// $1,000 per million tokens in and $2,000 out: each token of the chat model's costs a tenth of a cent or more.
const PRICES = { 'gpt-4o-mini': { prices: { inputTextPerMillion: 1000, outputPerMillion: 2000 } } };
const CHEAP_IMAGE = [
  { name: 'model', type: 3, value: 'gpt-image-1' },
  { name: 'size', type: 3, value: '1024x1024' },
  { name: 'quality', type: 3, value: 'low' },
];

const DESCRIPTION = ['A blue square.', '1. a blue square', '2. a square of blue', '3. blue', '4. a flat blue field'].join('\n');

describe('prompt help metered, end to end', () => {
  let h: Harness;
  let png: Buffer;
  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'imagine-prices-')), 'profiles.json');
    writeFileSync(file, JSON.stringify(PRICES));
    h = await startHarness({
      env: { QUOTA_DEFAULT_LIMIT: '50', PROMPT_MODEL: 'gpt-4o-mini', VISION_MODEL: 'gpt-4o-mini', DESCRIBE_COOLDOWN_SECONDS: '0', MODEL_PROFILES_FILE: file },
    });
    png = await sharp({ create: { width: 24, height: 16, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const admin = async (command: string, sub: string, options: SlashOption[] = []): Promise<string> => {
    const handle = h.discord.slash(command, [{ name: sub, type: 1, options }], { user: h.discord.fixtures.admin });
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200) || x.acks.some((a) => a.type === 4));
    return lastText(handle);
  };
  const handled = (handle: InteractionHandle) =>
    h.waitForLog((e) => e['interactionId'] === handle.id && (e.msg === 'interaction handled' || e.msg === 'user-facing error'));

  it('charges an enhance call whose prompt the image model then refuses, and gives the images back', async () => {
    const { member } = h.discord.fixtures;
    await admin('quota', 'money', [
      { name: 'usd', type: 10, value: 5 },
      { name: 'period', type: 3, value: 'day' },
    ]);
    h.gateway.enqueueChat({ type: 'success', content: 'a forbidden scene, rendered in detail' });
    h.gateway.enqueue({ type: 'error', preset: 'content_policy' });
    const chatBefore = h.gateway.chatRequests().length;
    const refused = h.discord.slash(
      'imagine',
      [{ name: 'prompt', type: 3, value: 'something the image model refuses' }, { name: 'enhance', type: 5, value: true }, ...CHEAP_IMAGE],
      { user: member },
    );
    await refused.waitFor(settled);
    expect(ephemeralError(refused)).toBeDefined();
    await handled(refused);
    expect(h.gateway.chatRequests()).toHaveLength(chatBefore + 1);
    const quota = await quotaText(h.discord, member);
    // The chat model's usage as the emulator reports it, at the prices above: a few dimes, not nothing.
    const spent = Number(/\*\*Spending: \$(\d+\.\d\d) of \$5\.00\*\*/.exec(quota)?.[1]);
    expect(spent).toBeGreaterThan(0.05);
    expect(spent).toBeLessThan(1);
    expect(quota).toContain('**You have 50 of 50 images left**');
    // The member is told what the failure did cost them.
    expect(ephemeralError(refused)).toContain(`Only the prompt help (✨ enhance) that ran counts toward your spending limit: $${spent.toFixed(2)}`);

    // /usage and its CSV show it, though no image was made.
    const usage = h.discord.slash('usage', [], { user: h.discord.fixtures.admin });
    await usage.waitFor((x) => x.edits.some((e) => e.status === 200));
    expect(lastText(usage)).toMatch(/Prompt help: 1 chat call · cost: \$0\.\d{2,}/);
    const csvHandle = h.discord.slash('usage', [{ name: 'format', type: 3, value: 'csv' }], { user: h.discord.fixtures.admin });
    await csvHandle.waitFor((x) => x.edits.some((e) => e.status === 200 && e.files.length > 0));
    const [header, ...rows] = csvHandle.edits
      .find((e) => e.files.length > 0)!
      .files[0]!.bytes.toString('utf8')
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    const row = rows.find((r) => r[header!.indexOf('user')] === member.id)!;
    expect(row[header!.indexOf('delivered')]).toBe('0');
    expect(row[header!.indexOf('prompt_help_model')]).toBe('gpt-4o-mini');
    expect(Number(row[header!.indexOf('prompt_help_cost_usd')])).toBeCloseTo(spent, 2);
  });

  const describeAs = async (user: { id: string }) => {
    const attachment = h.discord.uploadAttachment(png, 'square.png', 'image/png');
    const handle = h.discord.slash('describe', [{ name: 'image', type: 11, value: attachment.id }], { user: user as never });
    await handle.waitFor((x) => settled(x) || x.edits.some((e) => e.status === 200));
    return handle;
  };

  it('refuses a describe by a member over their money limit, before the vision model is asked', async () => {
    const member = h.discord.fixtures.members[0]!;
    // A cent: less than one describe's estimate at these prices (its image alone is hundreds of tokens).
    await admin('quota', 'money', [
      { name: 'usd', type: 10, value: 0.01 },
      { name: 'user', type: 6, value: member.id },
      { name: 'period', type: 3, value: 'day' },
    ]);
    const before = h.gateway.chatRequests().length;
    const refused = await describeAs(member);
    expect(ephemeralError(refused)).toMatch(/only \$0\.01 of your \$0\.01 spending limit is left/);
    expect(h.gateway.chatRequests()).toHaveLength(before);

    // With room in the limit, the describe is made and charged.
    await admin('quota', 'money', [
      { name: 'usd', type: 10, value: 50 },
      { name: 'user', type: 6, value: member.id },
      { name: 'period', type: 3, value: 'day' },
    ]);
    h.gateway.enqueueChat({ type: 'success', content: DESCRIPTION });
    const made = await describeAs(member);
    expect(ephemeralError(made)).toBeUndefined();
    expect(textOf(made.lastMessage())).toContain('A blue square.');
    const spent = Number(/\*\*Spending: \$(\d+\.\d\d) of \$50\.00\*\*/.exec(await quotaText(h.discord, member))?.[1]);
    expect(spent).toBeGreaterThan(0.05);
  });

  it("holds an admin's cap on describes per member and day", async () => {
    const member = h.discord.fixtures.members[1]!;
    await admin('settings', 'prompt-help', [
      { name: 'enabled', type: 5, value: true },
      { name: 'describes', type: 4, value: 1 },
    ]);
    h.gateway.enqueueChat({ type: 'success', content: DESCRIPTION });
    const first = await describeAs(member);
    expect(ephemeralError(first)).toBeUndefined();
    const before = h.gateway.chatRequests().length;
    const second = await describeAs(member);
    expect(ephemeralError(second)).toMatch(/You've used your 1 image descriptions for this period\. You can describe again <t:\d+:R>\./);
    expect(h.gateway.chatRequests()).toHaveLength(before);
    const settings = await admin('settings', 'show');
    expect(settings).toContain('Describes per member: 1 per day');
  });
});
