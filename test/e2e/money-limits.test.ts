/**
 * Money limits and the cost confirmation end to end (issue 17): a request whose estimate does not fit the member's
 * spending limit is refused with the estimate, before anything is sent or held; a delivered one commits the cost the
 * gateway reported; a failed one costs nothing; above the server's threshold the member confirms first, and nothing
 * is held until they do. Real discord.js client, both emulators, one store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InteractionHandle, SlashOption, UserFixture } from '../emulators/discord/index.js';
import { startHarness, type Harness } from './harness.js';
import { ephemeralError, resultPost, lastText, quotaText, settled } from './support.js';

// gpt-image-1 at 1024x1024, high quality: 4,160 output tokens per image at $40 per million (plus 5 prompt tokens).
const HIGH_SQUARE = [
  { name: 'model', type: 3, value: 'gpt-image-1' },
  { name: 'size', type: 3, value: '1024x1024' },
  { name: 'quality', type: 3, value: 'high' },
];

describe('money limits, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { QUOTA_DEFAULT_LIMIT: '50', LOG_LEVEL: 'debug' } });
  });
  afterAll(async () => {
    await (h as Harness | undefined)?.close();
  });

  const admin = async (command: string, sub: string, options: SlashOption[] = [], user = h.discord.fixtures.admin): Promise<string> => {
    const handle = h.discord.slash(command, [{ name: sub, type: 1, options }], { user });
    await handle.waitFor((x) => x.edits.some((e) => e.status === 200) || x.acks.some((a) => a.type === 4));
    return lastText(handle);
  };
  const imagine = (options: SlashOption[], user: UserFixture = h.discord.fixtures.member): InteractionHandle =>
    h.discord.slash('imagine', [{ name: 'prompt', type: 3, value: 'a lighthouse at dusk' }, ...options], { user });
  /** Waits until the bot has finished with the interaction (a job's totals are written after its reply). */
  const handled = (handle: InteractionHandle) =>
    h.waitForLog((e) => e['interactionId'] === handle.id && (e.msg === 'interaction handled' || e.msg === 'user-facing error'));

  it('refuses a request whose estimate does not fit, with the estimate, and commits the cost the gateway reported', async () => {
    const { member } = h.discord.fixtures;
    expect(
      await admin('quota', 'money', [
        { name: 'usd', type: 10, value: 0.3 },
        { name: 'period', type: 3, value: 'day' },
      ]),
    ).toContain('Everyone on this server (default): at most $0.30 per day.');
    expect(await quotaText(h.discord, member)).toContain('**Spending: $0.00 of $0.30** this day · $0.30 left');
    const before = h.gateway.imageRequests().length;
    const two = imagine([...HIGH_SQUARE, { name: 'count', type: 4, value: 2 }]);
    await two.waitFor(settled);
    expect(ephemeralError(two)).toContain('This request would cost about $0.33, and only $0.30 of your $0.30 spending limit is left.');
    expect(h.gateway.imageRequests()).toHaveLength(before);
    await handled(two);
    const usage = h.discord.slash('usage', [], { user: h.discord.fixtures.admin });
    await usage.waitFor((x) => x.edits.some((e) => e.status === 200));
    expect(lastText(usage)).toContain('Refused: `spend.exceeded` 1');

    h.gateway.enqueue({ type: 'success', usageShape: 'cost' });
    const one = imagine(HIGH_SQUARE);
    await one.waitFor(settled);
    expect(resultPost(one)?.files).toHaveLength(1);
    await handled(one);
    // The gateway reported $0.0421: that is what is charged, not the $0.17 estimate.
    const quota = await quotaText(h.discord, member);
    expect(quota).toContain('**Spending: $0.04 of $0.30** this day · $0.26 left');
    expect(quota).toContain('**You have 49 of 50 images left**');

    h.gateway.enqueue({ type: 'error', preset: 'server_error', lang: 'en' });
    const failed = imagine(HIGH_SQUARE);
    await failed.waitFor(settled);
    expect(ephemeralError(failed)).toContain('You were not charged');
    await handled(failed);
    expect(await quotaText(h.discord, member)).toContain('**Spending: $0.04 of $0.30** this day · $0.26 left');

    // A member's own limit overrides the server's; removing it brings the server's back.
    expect(
      await admin('quota', 'money', [
        { name: 'usd', type: 10, value: 0 },
        { name: 'user', type: 6, value: member.id },
      ]),
    ).toContain('blocked (spending limit $0)');
    const blocked = imagine([{ name: 'model', type: 3, value: 'gpt-image-1' }]);
    await blocked.waitFor(settled);
    expect(ephemeralError(blocked)).toContain("Image generation isn't enabled for you on this server.");
    expect(await admin('quota', 'money-remove', [{ name: 'user', type: 6, value: member.id }])).toContain(
      'no spending limit of its own any more (was $0.00 per month)',
    );
    expect(h.gateway.imageRequests()).toHaveLength(before + 2);
  });

  it('refuses a model whose cost is unknown while a money limit applies, and lets admins manage money limits only', async () => {
    const refused = imagine([{ name: 'model', type: 3, value: 'gpt-image-2' }]);
    await refused.waitFor(settled);
    expect(ephemeralError(refused)).toContain("the cost of `gpt-image-2` isn't known");
    expect(await admin('quota', 'money', [{ name: 'usd', type: 10, value: 100 }], h.discord.fixtures.member)).toContain(
      'Only members with the **Manage Server** permission can do that.',
    );
    expect(await admin('quota', 'money-remove')).toContain('Everyone on this server (default): no spending limit of its own any more (was $0.30 per day)');
    const free = imagine([{ name: 'model', type: 3, value: 'gpt-image-2' }]);
    await free.waitFor(settled);
    expect(resultPost(free)).toBeDefined();
    expect(await quotaText(h.discord, h.discord.fixtures.member)).not.toContain('Spending');
  });

  it('asks the member to confirm above the threshold, holding nothing until they do; only they can answer', async () => {
    const { member, users } = h.discord.fixtures;
    expect(await admin('settings', 'confirm-cost', [{ name: 'usd', type: 10, value: 0.1 }])).toContain(
      'Cost confirmation: members confirm requests estimated above $0.10',
    );
    const cheap = imagine([
      { name: 'model', type: 3, value: 'gpt-image-1' },
      { name: 'quality', type: 3, value: 'low' },
    ]);
    await cheap.waitFor(settled);
    expect(resultPost(cheap)).toBeDefined();
    await handled(cheap);

    const quotaBefore = await quotaText(h.discord, member);
    const requests = h.gateway.imageRequests().length;
    const asked = imagine(HIGH_SQUARE);
    await handled(asked);
    const question = asked.lastMessage()!;
    expect(question.content).toContain("this request will cost about **$0.17** (1 image), above this server's $0.10 threshold");
    const [generate, cancel] = (question.components![0] as { components: { custom_id: string; label: string }[] }).components;
    expect(generate!.label).toBe('Generate (~$0.17)');
    // Nothing sent, nothing held while the question waits.
    expect(h.gateway.imageRequests()).toHaveLength(requests);
    expect(await quotaText(h.discord, member)).toBe(quotaBefore);

    const stranger = h.discord.button(question, generate!.custom_id, { user: users.member2 });
    await stranger.waitFor(settled);
    expect(ephemeralError(stranger)).toContain('Only the member who asked for these images can confirm or cancel them.');

    const confirm = h.discord.button(question, generate!.custom_id, { user: member });
    await confirm.waitFor((x) => resultPost(x) !== undefined);
    expect(confirm.acks[0]?.type).toBe(7);
    expect(h.gateway.imageRequests()).toHaveLength(requests + 1);
    expect(h.gateway.imageRequests().at(-1)?.json).toMatchObject({ model: 'gpt-image-1', quality: 'high', size: '1024x1024' });
    const again = h.discord.button(question, generate!.custom_id, { user: member });
    await again.waitFor(settled);
    expect(ephemeralError(again)).toContain('This button has expired.');
    expect(h.gateway.imageRequests()).toHaveLength(requests + 1);

    const second = imagine(HIGH_SQUARE);
    await handled(second);
    const secondQuestion = second.lastMessage()!;
    const cancelId = (secondQuestion.components![0] as { components: { custom_id: string }[] }).components[1]!.custom_id;
    expect(cancelId.startsWith('costno:')).toBe(true);
    expect(cancel!.custom_id.startsWith('costno:')).toBe(true);
    // Answered in the clicker's language (their client's locale on the click).
    const cancelled = h.discord.button(secondQuestion, cancelId, { user: member, locale: 'fr' });
    await cancelled.waitForAck();
    expect(cancelled.acks[0]?.body?.data?.content).toBe('❌ Annulé. Rien n’a été facturé.');
    expect(h.gateway.imageRequests()).toHaveLength(requests + 1);
    await admin('settings', 'confirm-cost');
  });
});
